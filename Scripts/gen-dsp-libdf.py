#!/usr/bin/env python3
"""Reference data for Tests/DSPTests from the official libDF Python bindings (deepfilterlib 0.5.6)
and from numpy re-derivations of the formulas libdf does not expose (post-filter, deep filter,
signal metrics). Usage: gen-dsp-libdf.py OUTDIR

Every array is raw little-endian float32 (`NAME.f32`); manifest.json lists shapes and scalars.
"""
import json
import sys
from pathlib import Path

import libdf
import numpy as np

SR, FFT, HOP, NB_ERB, MIN_ERB, NB_DF, ALPHA = 48000, 960, 480, 32, 2, 96, 0.99


def save(out, manifest, name, array):
    array = np.ascontiguousarray(array, dtype="<f4")
    array.tofile(out / f"{name}.f32")
    manifest["arrays"][name] = list(array.shape)


def interleave(spec):
    """complex [..., F] -> float32 [..., F, 2] (re, im)."""
    return np.stack([spec.real, spec.imag], axis=-1).astype(np.float32)


def test_signal(rng, hops):
    n = np.arange(hops * HOP)
    t = n / SR
    signal = 0.05 * rng.standard_normal(n.size)
    signal += 0.3 * np.sin(2 * np.pi * 440 * t) * (1 + np.sin(2 * np.pi * 1.5 * t)) / 2
    signal += 0.1 * np.sin(2 * np.pi * (200 + 4000 * t) * t)
    signal[: 5 * HOP] *= 1e-4  # a near-silent start moves the normalisers from their initial states
    return signal.astype(np.float32)


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(20241125)
    manifest = {"arrays": {}, "versions": {"deepfilterlib": "0.5.6", "numpy": np.__version__}}

    # ERB layouts for several configurations (libdf defaults min_nb_erb_freqs to 1: always pass it).
    layouts = []
    for sr, fft, hop, bands, minimum in [(48000, 960, 480, 32, 2), (48000, 960, 480, 32, 1),
                                         (16000, 320, 160, 32, 1), (24000, 192, 96, 24, 1),
                                         (44100, 1024, 512, 24, 3), (8000, 256, 128, 16, 2)]:
        widths = libdf.DF(sr, fft, hop, bands, minimum).erb_widths()
        layouts.append({"sampleRate": sr, "fftSize": fft, "bandCount": bands, "minimumBandWidth": minimum,
                        "widths": [int(w) for w in widths]})
    manifest["erbLayouts"] = layouts

    df = libdf.DF(SR, FFT, HOP, NB_ERB, MIN_ERB)
    save(out, manifest, "window", df.fft_window())

    signal = test_signal(rng, 200)
    save(out, manifest, "signal", signal)
    spec = df.analysis(signal[None, :])  # [1, T, 481] complex64
    save(out, manifest, "spectrum", interleave(spec[0]))
    erb = libdf.erb(spec, df.erb_widths())
    save(out, manifest, "erb_features", libdf.erb_norm(erb, ALPHA)[0])
    unit = libdf.unit_norm(spec[..., :NB_DF], ALPHA)[0]  # [T, 96] complex
    save(out, manifest, "complex_features", np.stack([unit.real, unit.imag]))  # [2, T, 96]

    # Synthesis of a modified spectrum: a random complex gain per bin (as a mask would), with
    # non-zero imaginary parts at DC and Nyquist that synthesis must ignore.
    gains = (rng.uniform(0.2, 1.0, spec.shape) * np.exp(1j * rng.uniform(-np.pi, np.pi, spec.shape))).astype(np.complex64)
    modified = (spec * gains).astype(np.complex64)
    save(out, manifest, "modified_spectrum", interleave(modified[0]))
    synthesis = libdf.DF(SR, FFT, HOP, NB_ERB, MIN_ERB)
    modified_for_libdf = modified.copy()
    modified_for_libdf[..., 0] = modified_for_libdf[..., 0].real
    modified_for_libdf[..., -1] = modified_for_libdf[..., -1].real
    save(out, manifest, "modified_synthesis", synthesis.synthesis(modified_for_libdf)[0])

    # Post-filter (β = 0.02), re-derived from lib.rs `post_filter` in float32 numpy.
    noisy = spec[0, 50:60]
    enhanced = (noisy * rng.uniform(0.0, 1.2, noisy.shape)).astype(np.complex64)
    beta = np.float32(0.02)
    eps = np.float32(1e-12)
    g = np.clip(np.abs(enhanced) / (np.abs(noisy) + eps), None, np.float32(1)).astype(np.float32)
    g = np.maximum(g, eps)
    g_sin = g * np.sin(g * np.float32(np.pi) / np.float32(2))
    pf = ((beta + np.float32(1)) * g / (np.float32(1) + beta * (g / g_sin) ** 2)) / g
    filtered = enhanced.copy()
    filtered[:, :480] = enhanced[:, :480] * pf[:, :480]
    save(out, manifest, "postfilter_noisy", interleave(noisy))
    save(out, manifest, "postfilter_enhanced", interleave(enhanced))
    save(out, manifest, "postfilter_expected", interleave(filtered))

    # Deep filter over the whole sequence (multiframe.py `DF` semantics), in float64.
    frames = 12
    noisy = spec[0, 60:60 + frames].astype(np.complex128)
    coefs = rng.uniform(-1, 1, (frames, NB_DF, 5, 2)).astype(np.float32)
    c = coefs[..., 0].astype(np.float64) + 1j * coefs[..., 1]
    padded = np.concatenate([np.zeros((2, 481)), noisy, np.zeros((2, 481))])
    expected = noisy.copy()
    for t in range(frames):
        expected[t, :NB_DF] = sum(padded[t + i, :NB_DF] * c[t, :, i] for i in range(5))
    save(out, manifest, "df_noisy", interleave(noisy))
    save(out, manifest, "df_coefficients", coefs)
    save(out, manifest, "df_expected", interleave(expected))

    # Signal metrics, in float64.
    reference = signal[:48000].astype(np.float64)
    lag = 37
    test = np.concatenate([np.zeros(lag), reference[:-lag]]) + 1e-3 * rng.standard_normal(reference.size)
    test = test.astype(np.float32)
    save(out, manifest, "metrics_reference", reference)
    save(out, manifest, "metrics_test", test)
    t64 = test.astype(np.float64)
    diff = t64 - reference
    segment = 480
    seg_snrs = []
    for s in range(0, reference.size - segment + 1, segment):
        r, d = reference[s:s + segment], diff[s:s + segment]
        seg_snrs.append(10 * np.log10(np.sum(r * r) / np.sum(d * d)))
    max_lag = 100
    correlations = [np.dot(reference[max(0, -k):reference.size - max(0, k)], t64[max(0, k):t64.size - max(0, -k)])
                    for k in range(-max_lag, max_lag + 1)]
    manifest["metrics"] = {
        "maxAbsDifference": float(np.max(np.abs(diff))),
        "snrDecibels": float(10 * np.log10(np.sum(reference ** 2) / np.sum(diff ** 2))),
        "segmentLength": segment,
        "segmentalSNRDecibels": float(np.mean(np.clip(seg_snrs, -10, 35))),
        "maximumLag": max_lag,
        "bestLag": int(np.argmax(correlations) - max_lag),
        "insertedLag": lag,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1))


if __name__ == "__main__":
    main()
