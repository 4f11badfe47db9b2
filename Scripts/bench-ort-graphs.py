#!/usr/bin/env python3
"""Times the three DFN3 graphs in onnxruntime (one thread, default graph optimisations), the peer of
`dfbench graphs`. Inputs are deterministic random tensors of the graphs' shapes with S frames.

usage: bench-ort-graphs.py MODEL_DIR --frames 1 1000 --samples N
Prints one JSON object per line: {"graph", "frames", "samples", "median_ms", "p99_ms"}.
"""
import argparse
import json
import os
import time

import numpy as np
import onnxruntime as ort


def percentile(values, fraction):
    ordered = sorted(values)
    rank = max(int(np.ceil(fraction * len(ordered))) - 1, 0)
    return ordered[min(rank, len(ordered) - 1)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("models")
    parser.add_argument("--frames", type=int, nargs="+", default=[1, 1000])
    parser.add_argument("--samples", type=int, default=50)
    args = parser.parse_args()
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    rng = np.random.default_rng(7)
    for graph in ("enc", "erb_dec", "df_dec"):
        session = ort.InferenceSession(os.path.join(args.models, graph + ".onnx"), options,
                                       providers=["CPUExecutionProvider"])
        for frames in args.frames:
            inputs = {i.name: np.abs(rng.standard_normal([frames if isinstance(d, str) else d for d in i.shape]))
                      .astype(np.float32) for i in session.get_inputs()}
            samples = max(args.samples // (10 if frames > 100 else 1), 5)
            for _ in range(3):
                session.run(None, inputs)
            times = []
            for _ in range(samples):
                start = time.perf_counter()
                session.run(None, inputs)
                times.append((time.perf_counter() - start) * 1e3)
            print(json.dumps({"graph": graph, "frames": frames, "samples": samples,
                              "median_ms": percentile(times, 0.5), "p99_ms": percentile(times, 0.99)}), flush=True)


if __name__ == "__main__":
    main()
