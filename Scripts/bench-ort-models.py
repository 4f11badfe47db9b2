#!/usr/bin/env python3
"""Times GTCRN, Silero VAD and DNSMOS in onnxruntime on one 16 kHz clip, in this process, on one thread:
the peer our engine's runs of these graphs are compared with.

Usage: Scripts/bench-ort-models.py [--clip WAV] [--frames N] [--chunks N] [--runs N] [--warmup N] [--models LIST]
       Scripts/bench-ort-models.py [--clip WAV] [--frames N] [--chunks N] --serve

Workloads (inputs made from the 48 kHz clip resampled to 16 kHz as in gen-model-references.py, before any
timing; sessions from Models/, one intra-op thread, default graph optimisations):
  gtcrn per-frame     gtcrn_simple.onnx one STFT frame per call, its three caches carried from zeros; a run
                      is --frames consecutive frames from the start of the clip (default 500; 16 ms each)
  silero per-chunk    silero_vad.onnx at sr 16000, one 576-sample chunk (512 new behind 64 of context) per
                      call, state carried from zeros; a run is --chunks chunks (default 300; 32 ms each)
  dnsmos per-window   the first 9.01 s window through sig_bak_ovr.onnx (P.835, on the samples) and
                      model_v8.onnx (P.808, on log-mel features computed beforehand): only the two calls timed

--serve times one run per request, so that a caller can interleave these runs with its own (the shape of
Scripts/bench-peers.py --serve): after setup it prints `ready`, then answers each line `<model> <mode>` on
stdin (one of the workloads above) with one JSON line {"ns": wall time of the run, "frame_ns": [the time of each
onnxruntime call: one per frame or chunk; for dnsmos sig_bak_ovr then model_v8], "audio_seconds": audio the
run covers}; a line `quit` or the end of stdin ends it. Every run starts from fresh caches/state.

Without --serve: --warmup untimed runs, then --runs timed runs of each of --models (default
gtcrn,silero,dnsmos); prints the median and p99 time per call pooled over the timed runs (for dnsmos per
window and per graph) and the RTF (run wall time / audio covered, median over runs).
"""
import sys
from pathlib import Path

from peer_process import ROOT, BenchError, answer_requests, enter_single_threaded_venv

enter_single_threaded_venv(__file__)

import argparse
import gc
import time

import numpy as np

from model_inputs import (CLIP, DNSMOS_RATE, DNSMOS_WINDOW, GTCRN_HOP, MODELS, SILERO_CHUNK, ModelInputError,
                          clip, dnsmos_window, gtcrn_frames, p808_features, session, silero_chunks)
from wav_file import WavError

RATE = 16000


class Streaming:
    """A graph called once per step with its state outputs fed back as the next step's inputs."""

    calls = None

    def __init__(self, model, steps, stepped, fixed, carry, initial, hop):
        self.session = session(MODELS / model)
        self.outputs = [o.name for o in self.session.get_outputs()]
        self.stepped, self.fixed, self.carry, self.initial = stepped, fixed, carry, initial
        self.steps = steps
        self.audio_seconds = steps * hop / RATE

    def run(self, frame_ns):
        name, values = self.stepped
        state = dict(self.initial)
        for step in range(self.steps):
            feed = {name: values[step], **self.fixed, **state}
            start = time.perf_counter_ns()
            results = self.session.run(self.outputs, feed)
            frame_ns.append(time.perf_counter_ns() - start)
            state = {self.carry[key]: value for key, value in zip(self.outputs, results) if key in self.carry}


class Dnsmos:
    """Both DNSMOS graphs on one window, the P.808 features computed at setup."""

    calls = ("sig_bak_ovr", "model_v8")

    def __init__(self, signal):
        self.p835, self.p808 = session(MODELS / "DNSMOS/sig_bak_ovr.onnx"), session(MODELS / "DNSMOS/model_v8.onnx")
        window = dnsmos_window(signal)
        self.feeds = ({"input_1": window}, {"input_1": p808_features(window)})
        self.audio_seconds = DNSMOS_WINDOW / DNSMOS_RATE

    def run(self, frame_ns):
        for graph, feed in zip((self.p835, self.p808), self.feeds):
            start = time.perf_counter_ns()
            graph.run(None, feed)
            frame_ns.append(time.perf_counter_ns() - start)


def workloads(clip_path, frames, chunks, names):
    """The requested workloads by (model, mode), sessions loaded and inputs made."""
    signal = clip(RATE, clip_path)
    made = {}
    if "gtcrn" in names:
        spectra = gtcrn_frames(signal)
        if not 1 <= frames <= spectra.shape[0]:
            raise BenchError(f"--frames {frames}: the clip has {spectra.shape[0]} GTCRN frames")
        made[("gtcrn", "per-frame")] = Streaming(
            "GTCRN/gtcrn_simple.onnx", frames, ("mix", spectra[:frames]), {},
            {"conv_cache_out": "conv_cache", "tra_cache_out": "tra_cache", "inter_cache_out": "inter_cache"},
            {"conv_cache": np.zeros((2, 1, 16, 16, 33), np.float32), "tra_cache": np.zeros((2, 3, 1, 1, 16), np.float32),
             "inter_cache": np.zeros((2, 1, 33, 16), np.float32)}, GTCRN_HOP)
    if "silero" in names:
        inputs = silero_chunks(signal, RATE)
        if not 1 <= chunks <= inputs.shape[0]:
            raise BenchError(f"--chunks {chunks}: the clip has {inputs.shape[0]} Silero chunks")
        made[("silero", "per-chunk")] = Streaming(
            "SileroVAD/silero_vad.onnx", chunks, ("input", inputs[:chunks]), {"sr": np.array(RATE, np.int64)},
            {"stateN": "state"}, {"state": np.zeros((2, 1, 128), np.float32)}, SILERO_CHUNK[RATE])
    if "dnsmos" in names:
        made[("dnsmos", "per-window")] = Dnsmos(signal)
    return made


def timed_run(workload):
    """One run of `workload`: (wall time in ns, per-call times in ns)."""
    frame_ns = []
    gc.collect()
    gc.disable()  # a collection inside a run would be charged to whichever call it lands on
    try:
        start = time.perf_counter_ns()
        workload.run(frame_ns)
        elapsed = time.perf_counter_ns() - start
    finally:
        gc.enable()
    return elapsed, frame_ns


def serve(runs):
    """The --serve loop (see the module docstring)."""
    def answer(run):
        elapsed, frame_ns = timed_run(run)
        return {"ns": elapsed, "frame_ns": frame_ns, "audio_seconds": run.audio_seconds}
    answer_requests({request: (lambda run=run: answer(run)) for request, run in runs.items()})


def bench(runs, warmup, count):
    """Prints a row per workload (time per call; DNSMOS: per window) and per DNSMOS graph."""
    print(f"{'model':<8} {'mode / graph':<13} {'calls/run':>9} {'median ms':>10} {'p99 ms':>8} {'rtf':>8} {'runs':>5}")
    for (model, mode), workload in runs.items():
        walls, frames = [], []
        for index in range(warmup + count):
            elapsed, frame_ns = timed_run(workload)
            if index >= warmup:
                walls.append(elapsed)
                frames.append(frame_ns)
        rtf = float(np.median(walls)) / 1e9 / workload.audio_seconds
        rows = [(mode, np.array(frames).reshape(-1) if workload.calls is None else np.array(walls), rtf)]
        rows += [(graph, np.array(frames)[:, index], None) for index, graph in enumerate(workload.calls or ())]
        for label, times, row_rtf in rows:
            per_call = times / 1e6
            cell = f"{row_rtf:8.4f}" if row_rtf is not None else f"{'':8}"
            print(f"{model:<8} {label:<13} {per_call.size // count:9d} {np.median(per_call):10.3f} "
                  f"{np.percentile(per_call, 99):8.3f} {cell} {count:5d}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clip", type=Path, default=CLIP, help="48 kHz mono WAV (default: the sample clip)")
    parser.add_argument("--frames", type=int, default=500, help="GTCRN frames per run")
    parser.add_argument("--chunks", type=int, default=300, help="Silero chunks per run")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--models", default="gtcrn,silero,dnsmos", help="comma-separated: gtcrn, silero, dnsmos")
    parser.add_argument("--serve", action="store_true", help="time one run per request on stdin (see above)")
    args = parser.parse_args()
    names = set(args.models.split(","))
    if not names <= {"gtcrn", "silero", "dnsmos"}:
        sys.exit(f"bench-ort-models: error: --models takes gtcrn, silero and dnsmos, got '{args.models}'")
    if args.runs < 1 or args.warmup < 0:
        sys.exit("bench-ort-models: error: --runs must be ≥ 1 and --warmup ≥ 0")
    try:
        runs = workloads(args.clip, args.frames, args.chunks, names)
        if args.serve:
            serve(runs)
        else:
            bench(runs, args.warmup, args.runs)
    except (BenchError, ModelInputError, WavError, OSError) as error:
        sys.exit(f"bench-ort-models: error: {error}")


if __name__ == "__main__":
    main()
