"""GTCRN's official streaming arrangement (Xiaobin-Rong/gtcrn, stream/gtcrn_stream.py) in numpy and
onnxruntime, as the reference our Swift pipeline is held to; written from the PyTorch semantics, not
from our code:
  spectra = torch.stft(x, n_fft=512, hop_length=256, win_length=512, window=hann_window(512).pow(0.5),
                       center=True, return_complex=False)      # reflect padding of 256 at both ends
  frames fed one by one to gtcrn_simple.onnx, its three caches fed back from zeros
  y = torch.istft(enhanced, same window, center=True, length=len(x))
torch.istft overlap-adds irfft(frame)·window and divides by the overlap-added squared window, then
trims the centre padding; the official script resynthesises with np.hanning(512)**0.5 (symmetric), a
slip: the offline PyTorch model uses the periodic window, as here.
"""
import time

import numpy as np

from model_inputs import GTCRN_FFT, GTCRN_HOP, gtcrn_frames

CACHES = ("conv_cache", "tra_cache", "inter_cache")


def enhance(session, signal, call_ns=None):
    """The enhanced float32 signal, aligned with `signal` and of its length (16 kHz, mono); appends
    each network call's time in ns to `call_ns` when given (for the benchmark harness)."""
    frames = gtcrn_frames(signal)
    shapes = {i.name: i.shape for i in session.get_inputs()}
    state = {name: np.zeros(shapes[name], np.float32) for name in CACHES}
    outputs = [o.name for o in session.get_outputs()]
    enhanced = np.empty_like(frames)
    for t in range(frames.shape[0]):
        start = time.perf_counter_ns()
        results = dict(zip(outputs, session.run(outputs, {"mix": frames[t], **state})))
        if call_ns is not None:
            call_ns.append(time.perf_counter_ns() - start)
        enhanced[t] = results["enh"]
        state = {name: results[name + "_out"] for name in CACHES}
    spectra = enhanced[:, 0, :, 0, 0].astype(np.float64) + 1j * enhanced[:, 0, :, 0, 1].astype(np.float64)
    window = np.sqrt(0.5 - 0.5 * np.cos(2 * np.pi * np.arange(GTCRN_FFT) / GTCRN_FFT))
    count = spectra.shape[0]
    length = (count - 1) * GTCRN_HOP + GTCRN_FFT
    overlap = np.zeros(length)
    envelope = np.zeros(length)
    for t in range(count):
        start = t * GTCRN_HOP
        overlap[start:start + GTCRN_FFT] += np.fft.irfft(spectra[t], GTCRN_FFT) * window
        envelope[start:start + GTCRN_FFT] += window * window
    # The envelope is 0 only at the very first sample, inside the trimmed centre padding.
    with np.errstate(invalid="ignore", divide="ignore"):
        return (overlap / envelope)[GTCRN_HOP:GTCRN_HOP + signal.size].astype(np.float32)
