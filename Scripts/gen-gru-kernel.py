#!/usr/bin/env python3
"""Writes onnxruntime's results for single GRU nodes into OUTDIR/cases.json, so that the GRU
kernel's reading of the ONNX semantics the Double reference does not settle on its own
(reverse direction with per-batch sequence_lens, bidirectional output layout, both
linear_before_reset modes) is checked against the runtime everyone else uses.

cases.json: a list of objects with
  name, direction ("forward" | "reverse" | "bidirectional"), linear_before_reset, hidden_size,
  steps, batch, input_size, X [T*B*I], W [D*3H*I], R [D*3H*H], B [D*6H], sequence_lens [B],
  initial_h [D*B*H], Y [T*D*B*H], Y_h [D*B*H]   (flat row-major float lists, ONNX layouts)
"""
import json
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper


def run_gru(direction, linear_before_reset, hidden, x, w, r, b, lengths, h0):
    names = ["X", "W", "R", "B", "sequence_lens", "initial_h"]
    node = helper.make_node(
        "GRU", names, ["Y", "Y_h"], hidden_size=hidden, direction=direction,
        linear_before_reset=linear_before_reset)
    inputs = [helper.make_tensor_value_info(n, TensorProto.INT32 if n == "sequence_lens" else TensorProto.FLOAT, None)
              for n in names]
    outputs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in ("Y", "Y_h")]
    graph = helper.make_graph([node], "gru", inputs, outputs)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)], ir_version=8)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, {"X": x, "W": w, "R": r, "B": b, "sequence_lens": lengths, "initial_h": h0})


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen-gru-kernel.py OUTDIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(20261130)
    cases = []
    configurations = [
        # steps, batch, input, hidden, lengths
        (5, 1, 7, 8, [5]),
        (6, 3, 5, 13, [6, 2, 4]),
        (4, 2, 3, 16, [1, 4]),
        (7, 4, 9, 5, [7, 7, 3, 1]),
    ]
    for direction in ("forward", "reverse", "bidirectional"):
        for linear_before_reset in (0, 1):
            for steps, batch, input_size, hidden, lengths in configurations:
                d = 2 if direction == "bidirectional" else 1
                scale = 1 / np.sqrt(hidden)
                x = rng.uniform(-2, 2, (steps, batch, input_size)).astype(np.float32)
                w = rng.uniform(-scale, scale, (d, 3 * hidden, input_size)).astype(np.float32)
                r = rng.uniform(-scale, scale, (d, 3 * hidden, hidden)).astype(np.float32)
                b = rng.uniform(-1, 1, (d, 6 * hidden)).astype(np.float32)
                h0 = rng.uniform(-1, 1, (d, batch, hidden)).astype(np.float32)
                seq = np.array(lengths, dtype=np.int32)
                y, y_h = run_gru(direction, linear_before_reset, hidden, x, w, r, b, seq, h0)
                cases.append({
                    "name": f"{direction}_lbr{linear_before_reset}_T{steps}_B{batch}_I{input_size}_H{hidden}",
                    "direction": direction, "linear_before_reset": linear_before_reset, "hidden_size": hidden,
                    "steps": steps, "batch": batch, "input_size": input_size,
                    "X": x.ravel().tolist(), "W": w.ravel().tolist(), "R": r.ravel().tolist(),
                    "B": b.ravel().tolist(), "sequence_lens": lengths, "initial_h": h0.ravel().tolist(),
                    "Y": y.ravel().tolist(), "Y_h": y_h.ravel().tolist(),
                })
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump({"onnxruntime": ort.__version__, "cases": cases}, f)
    print(f"gen-gru-kernel: {len(cases)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()
