#!/usr/bin/env python3
"""Times the reference arrangement of a card model on onnxruntime, in this process, on one thread: the
peer `dfbench peers --model NAME` compares our card enhancer with. Each arrangement is its wheel's own
loop as the reference scripts write it, from samples to samples on the whole clip:
  gtcrn        Scripts/gtcrn_reference.py: reflect-padded STFT, one network call per 16 ms frame with its
               caches fed back, inverse STFT; frame_ns holds the network calls
  dtln         Scripts/dtln_reference.py: per 8 ms block rfft, model_1, irfft, model_2, overlap-add;
               frame_ns holds each block's whole step (FFTs and both calls)
  nsnet2       Scripts/nsnet2_reference.py (16 kHz): STFT, the GRUs over the whole sequence in one call
  nsnet2-48k   the same at 48 kHz (window 960, FFT 1024, hop 512), as the wheel runs it (its torch steps in numpy)
             for the NSNet2 graphs frame_ns is the one call.
and per frame, the network alone as a real-time caller would call it, one call per hop on features made
beforehand: gtcrn and dtln their loops' calls (as above); NSNet2, whose export has no state inputs (its GRUs
start from zeros inside: onnxruntime cannot carry its state across calls), one [1, 1, bins] call per frame
— the cost of a frame-by-frame call, its output not fed anywhere.

Usage: Scripts/bench-card-peers.py --model NAME [--clip WAV] --serve
After setup it prints `ready`, then answers each line `NAME arrangement` or `NAME per-frame` with one JSON line {"ns": wall time
of the run, "frame_ns": [...], "audio_seconds": audio the run covers, "frames": hops the run covers}; `quit` or
the end of stdin ends it. The clip (48 kHz) is resampled to the model's rate with soxr VHQ.
"""
from peer_process import BenchError, answer_requests, enter_single_threaded_venv

enter_single_threaded_venv(__file__)

import argparse
import gc
import sys
import time

import numpy as np

import dtln_reference
import gtcrn_reference
import nsnet2_reference
from model_inputs import CLIP, MODELS, ModelInputError, clip, session

# name: (rate, hop, graph files, the reference's whole-signal function)
MODELS_RUN = {
    "gtcrn": (16000, 256, ["GTCRN/gtcrn_simple.onnx"], lambda sessions, x, ns: gtcrn_reference.enhance(sessions[0], x, ns)),
    "dtln": (16000, 128, ["DTLN/model_1.onnx", "DTLN/model_2.onnx"], lambda sessions, x, ns: dtln_reference.enhance(*sessions, x, ns)),
    "nsnet2": (16000, 160, ["NSNet2/nsnet2-20ms-baseline.onnx"], lambda sessions, x, ns: nsnet2_reference.enhance_16k(sessions[0], x)),
    "nsnet2-48k": (48000, 512, ["NSNet2-48k/nsnet2-20ms-48k-baseline.onnx"],
                   lambda sessions, x, ns: nsnet2_reference.enhance_48k(sessions[0], x)),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, choices=sorted(MODELS_RUN))
    parser.add_argument("--clip", default=str(CLIP))
    parser.add_argument("--serve", action="store_true", required=True)
    args = parser.parse_args()
    rate, hop, files, enhance = MODELS_RUN[args.model]
    try:
        signal = clip(rate, args.clip)
        sessions = [session(MODELS / file) for file in files]
    except ModelInputError as error:
        raise BenchError(str(error))
    enhance(sessions, signal[:rate], [])  # warm the sessions up

    def run():
        frame_ns = []
        gc.collect()
        gc.disable()  # a collection inside a run would be charged to whichever call it lands on
        try:
            start = time.perf_counter_ns()
            if args.model.startswith("nsnet2"):
                call = time.perf_counter_ns()
                enhance(sessions, signal, frame_ns)
                frame_ns.append(time.perf_counter_ns() - call)
            else:
                enhance(sessions, signal, frame_ns)
            elapsed = time.perf_counter_ns() - start
        finally:
            gc.enable()
        return {"ns": elapsed, "frame_ns": frame_ns, "audio_seconds": signal.size / rate, "frames": signal.size // hop}

    def per_frame():
        if not args.model.startswith("nsnet2"):
            return run()
        gc.collect()
        gc.disable()
        try:
            frame_ns = []
            name = sessions[0].get_inputs()[0].name
            start = time.perf_counter_ns()
            for frame in features:
                call = time.perf_counter_ns()
                sessions[0].run(None, {name: frame})
                frame_ns.append(time.perf_counter_ns() - call)
            elapsed = time.perf_counter_ns() - start
        finally:
            gc.enable()
        return {"ns": elapsed, "frame_ns": frame_ns, "audio_seconds": len(features) * hop / rate, "frames": len(features)}

    features = []
    if args.model.startswith("nsnet2"):
        frame, fft = (320, 320) if rate == 16000 else (960, 1024)
        window = np.sqrt(0.5 - 0.5 * np.cos(2 * np.pi * np.arange(frame) / frame))
        for start in range(0, signal.size - frame, hop):
            power = np.abs(np.fft.rfft(signal[start:start + frame] * window, fft)) ** 2
            features.append(np.log10(np.maximum(power, 1e-12)).astype(np.float32).reshape(1, 1, -1))
    answer_requests({(args.model, "arrangement"): run, (args.model, "per-frame"): per_frame})


if __name__ == "__main__":
    try:
        main()
    except BenchError as error:
        sys.exit(f"bench-card-peers: error: {error}")
