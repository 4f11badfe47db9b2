#!/usr/bin/env python3
"""Writes onnxruntime's results for single Conv and ConvTranspose nodes into OUTDIR/cases.json,
so that the conv kernels' reading of the ONNX attributes (asymmetric pads, dilations, groups,
output_padding, the ConvTranspose output size) is checked against a runtime we did not write,
not only against a reference written from the same reading.

cases.json: {"onnxruntime": version, "cases": [ ... ]}, each case with
  op ("Conv" | "ConvTranspose"), batch, input_channels, output_channels, group,
  input_shape, kernel_shape, strides, dilations, pads_begin, pads_end, output_padding (spatial lists),
  X, W, B (or null), Y (flat row-major float lists), output_shape (spatial)
"""
import json
import os
import sys

import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper


def run_node(op, attributes, x, w, b):
    names = ["X", "W"] + (["B"] if b is not None else [])
    node = helper.make_node(op, names, ["Y"], **attributes)
    inputs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in names]
    graph = helper.make_graph([node], "conv", inputs, [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    feeds = {"X": x, "W": w}
    if b is not None:
        feeds["B"] = b
    return session.run(None, feeds)[0]


def random_case(rng, op):
    rank = int(rng.integers(1, 3))
    depthwise = rng.random() < 0.3
    if depthwise:
        group = int(rng.choice([3, 4, 8]))
        c = group
        m = group * (int(rng.choice([1, 2])) if op == "ConvTranspose" else 1)
    else:
        group = int(rng.choice([1, 1, 2, 3]))
        c = group * int(rng.integers(1, 4))
        m = group * int(rng.integers(1, 4))
    kernel = [int(rng.choice([1, 2, 3, 5])) for _ in range(rank)]
    strides = [int(rng.choice([1, 2, 3])) for _ in range(rank)]
    dilations = [int(rng.choice([1, 2])) for _ in range(rank)]
    begin = [int(rng.integers(0, 3)) for _ in range(rank)]
    end = [int(rng.integers(0, 3)) for _ in range(rank)]
    spans = [(k - 1) * d + 1 for k, d in zip(kernel, dilations)]
    if op == "Conv":
        shape = [max(s - p - q, 1) + int(rng.integers(0, 8)) for s, p, q in zip(spans, begin, end)]
        output_padding = [0] * rank
    else:
        # onnxruntime accepts output_padding < stride only.
        output_padding = [int(rng.integers(0, s)) for s in strides]
        shape = [max((p + q - s) // st + 2, 1) + int(rng.integers(0, 6)) for s, p, q, st in zip(spans, begin, end, strides)]
    batch = int(rng.choice([1, 2]))
    x = rng.uniform(-1, 1, [batch, c] + shape).astype(np.float32)
    w_shape = [m, c // group] + kernel if op == "Conv" else [c, m // group] + kernel
    w = rng.uniform(-1, 1, w_shape).astype(np.float32)
    b = rng.uniform(-1, 1, [m]).astype(np.float32) if rng.random() < 0.5 else None
    attributes = dict(kernel_shape=kernel, strides=strides, dilations=dilations, pads=begin + end, group=group)
    if op == "ConvTranspose":
        attributes["output_padding"] = output_padding
    y = run_node(op, attributes, x, w, b)
    return {
        "op": op, "batch": batch, "input_channels": c, "output_channels": m, "group": group,
        "input_shape": shape, "kernel_shape": kernel, "strides": strides, "dilations": dilations,
        "pads_begin": begin, "pads_end": end, "output_padding": output_padding,
        "X": x.ravel().tolist(), "W": w.ravel().tolist(), "B": None if b is None else b.tolist(),
        "Y": y.ravel().tolist(), "output_shape": list(y.shape[2:]),
    }


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen-conv-kernel.py OUTDIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(20261130)
    cases = [random_case(rng, op) for op in ("Conv", "ConvTranspose") for _ in range(40)]
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump({"onnxruntime": ort.__version__, "cases": cases}, f)
    print(f"gen-conv-kernel: {len(cases)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()
