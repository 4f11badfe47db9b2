#!/usr/bin/env python3
"""Times the reference implementations of the quality metrics on the 10 s sample clip, in this process, on one
thread: the peers `dfbench metrics` compares our Swift metrics with.

Usage: Scripts/bench-metrics.py [--runs N] [--warmup N]
       Scripts/bench-metrics.py --serve

Workloads (the README sample's clean and noisy halves from Tests/Fixtures/generated/metrics-references, made by
Scripts/gen-metrics-references.py; inputs read and converted before any timing):
  stoi-16k   pystoi 0.4.1: stoi(clean, noisy, 16000) then stoi(…, extended=True) (STOI and ESTOI) at 16 kHz,
             on float64 copies of the samples
  stoi-48k   the same at 48 kHz (pystoi resamples both signals to 10 kHz with its resample_oct)
  dnsmos     speechmos 0.0.1.1's DNSMOS on the noisy clip at 16 kHz (one 9.01 s window: librosa's log-mel
             features, P.835 and P.808 on onnxruntime), its two sessions remade with one intra-op thread
             (speechmos' own use every core)
  vad        silero-vad 6.2.3's get_speech_timestamps with its OnnxWrapper (Scripts/silero_vad_reference.py) on
             the noisy clip at 16 kHz: 313 chunks through onnxruntime, then the segments

--serve: after setup prints `ready`, then answers each line `<workload> run` on stdin with one JSON line
{"ns": wall time of the run, "frame_ns": [], "audio_seconds": 10.0}; `quit` or the end of stdin ends it.
Without --serve: --warmup untimed runs, then --runs timed runs of each; prints the median and the real-time factor.
"""
import os
import sys

from peer_process import ROOT, BenchError, answer_requests, enter_single_threaded_venv

enter_single_threaded_venv(__file__, ("NUMBA_NUM_THREADS",))

import argparse
import gc
import time

import numpy as np
import onnxruntime as ort
import pystoi
import speechmos.dnsmos

import silero_vad_reference as vad
from wav_file import read_wav

CLIPS = ROOT / "Tests" / "Fixtures" / "generated" / "metrics-references" / "clips"
MODELS = ROOT / "Models"


def clip(rate, kind):
    path = CLIPS / f"sample.{rate}.{kind}.wav"
    if not path.is_file():
        raise BenchError(f"{path} is missing; run Scripts/setup (Scripts/generate-fixtures writes it)")
    signal, file_rate = read_wav(path)
    if file_rate != rate:
        raise BenchError(f"{path}: {file_rate} Hz, expected {rate}")
    return signal


def single_threaded(path):
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def workloads():
    runs = {}
    for rate in (16000, 48000):
        clean, noisy = clip(rate, "clean").astype(np.float64), clip(rate, "noisy").astype(np.float64)
        runs[f"stoi-{rate // 1000}k"] = (lambda c=clean, n=noisy, r=rate: (pystoi.stoi(c, n, r),
                                                                          pystoi.stoi(c, n, r, extended=True)))
    noisy = clip(16000, "noisy")
    models = MODELS / "DNSMOS"
    dnsmos = speechmos.dnsmos.DNSMOS(str(models / "sig_bak_ovr.onnx"), str(models / "model_v8.onnx"))
    dnsmos.onnx_sess = single_threaded(models / "sig_bak_ovr.onnx")
    dnsmos.p808_onnx_sess = single_threaded(models / "model_v8.onnx")
    runs["dnsmos"] = lambda: dnsmos(noisy, 16000, False)
    model = vad.OnnxWrapper(MODELS / "SileroVAD" / "silero_vad.onnx")
    runs["vad"] = lambda: vad.speech_timestamps(noisy, model, 16000)
    return runs


def timed(work):
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter_ns()
        work()
        return time.perf_counter_ns() - start
    finally:
        gc.enable()


def serve(runs):
    answer_requests({(name, "run"): (lambda run=run: {"ns": timed(run), "frame_ns": [], "audio_seconds": 10.0})
                     for name, run in runs.items()})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--serve", action="store_true", help="time one run per request on stdin (see above)")
    args = parser.parse_args()
    if args.runs < 1 or args.warmup < 0:
        sys.exit("bench-metrics: error: --runs must be ≥ 1 and --warmup ≥ 0")
    try:
        runs = workloads()
        if args.serve:
            serve(runs)
            return
        print(f"{'workload':<10} {'median ms':>10} {'rtf':>8}")
        for name, work in runs.items():
            times = [timed(work) for _ in range(args.warmup + args.runs)][args.warmup:]
            median = float(np.median(times)) / 1e6
            print(f"{name:<10} {median:10.2f} {median / 1e4:8.4f}")
    except (BenchError, OSError) as error:
        sys.exit(f"bench-metrics: error: {error}")


if __name__ == "__main__":
    main()
