#!/usr/bin/env python3
"""Multiply-accumulates DFN3 needs per 10 ms frame, by graph and operator type, counted from the
shapes onnxruntime computes when it runs each graph over FRAMES frames (every node's output kept).

Usage: Scripts/dfn3-macs.py [--models DIR] [--frames N] [--rtf RTF]

Counted: Conv (output elements × input channels per group × kernel), ConvTranspose (input
elements × output channels per group × kernel), MatMul, Einsum (product of all index sizes),
GRU (input projection and, listed apart, the recurrence h·Rᵀ, which runs frame after frame and
cannot be batched over time). Elementwise operators are left out (they are < 1 % of the MACs).
With --rtf, also prints the arithmetic rate that real-time factor implies (2 FLOP per MAC).
"""
import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
if Path(sys.prefix).resolve() != VENV.resolve():
    if not (VENV / "bin" / "python").exists():
        sys.exit("dfn3-macs: error: .venv is missing; run Scripts/setup")
    os.execv(VENV / "bin" / "python", [str(VENV / "bin" / "python"), __file__, *sys.argv[1:]])

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper

GRAPHS = ["enc", "erb_dec", "df_dec"]


def attribute(node, name, default):
    for item in node.attribute:
        if item.name == name:
            return onnx.helper.get_attribute_value(item)
    return default


def shapes_of(path, frames):
    """Every value's shape when the graph runs over `frames` frames (random inputs)."""
    model = onnx.load(path)
    shapes = {item.name: numpy_helper.to_array(item).shape for item in model.graph.initializer}
    declared = {item.name for item in model.graph.output}
    for node in model.graph.node:
        for output in node.output:
            if output and output not in declared:
                model.graph.output.append(onnx.ValueInfoProto(name=output))
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(model.SerializeToString(), options)
    rng = np.random.default_rng(0)
    feeds = {}
    for item in session.get_inputs():
        shape = [frames if isinstance(size, str) else size for size in item.shape]
        feeds[item.name] = rng.standard_normal(shape).astype(np.float32)
    outputs = session.run(None, feeds)
    shapes.update({name: value.shape for name, value in feeds.items()})
    shapes.update({item.name: value.shape for item, value in zip(session.get_outputs(), outputs)})
    return model, shapes


def macs_of(node, shape):
    kind = node.op_type
    if kind == "Conv":
        return {kind: np.prod(shape(node.output[0])) * np.prod(shape(node.input[1])[1:])}
    if kind == "ConvTranspose":
        return {kind: np.prod(shape(node.input[0])) * np.prod(shape(node.input[1])[1:])}
    if kind == "MatMul":
        return {kind: np.prod(shape(node.input[0])) * shape(node.input[1])[-1]}
    if kind == "Einsum":
        operands = attribute(node, "equation", b"").decode().replace(" ", "").split("->")[0].split(",")
        sizes = {}
        for letters, name in zip(operands, node.input):
            sizes.update(zip(letters, shape(name)))
        return {kind: np.prod([sizes[letter] for letter in set("".join(operands))])}
    if kind == "GRU":
        steps = np.prod(shape(node.input[0])[:2])
        return {"GRU input projection": steps * np.prod(shape(node.input[1])[1:]),
                "GRU recurrence": steps * np.prod(shape(node.input[2])[1:])}
    return {}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=ROOT / "Models" / "DeepFilterNet3")
    parser.add_argument("--frames", type=int, default=100)
    parser.add_argument("--rtf", type=float, help="a measured real-time factor to turn into GFLOP/s")
    args = parser.parse_args()
    if args.frames < 1:
        sys.exit("dfn3-macs: error: --frames must be ≥ 1")
    total, recurrence = 0.0, 0.0
    print(f"{'graph':<8} {'operator':<22} {'MMAC per frame':>15}")
    for graph in GRAPHS:
        path = args.models / f"{graph}.onnx"
        if not path.exists():
            sys.exit(f"dfn3-macs: error: {path} not found; run Scripts/setup")
        model, shapes = shapes_of(path, args.frames)
        counts = {}
        for node in model.graph.node:
            for kind, macs in macs_of(node, lambda name: shapes[name]).items():
                counts[kind] = counts.get(kind, 0) + macs / args.frames
        for kind, macs in sorted(counts.items(), key=lambda item: -item[1]):
            print(f"{graph:<8} {kind:<22} {macs / 1e6:15.3f}")
        total += sum(counts.values())
        recurrence += counts.get("GRU recurrence", 0)
    print(f"total: {total / 1e6:.3f} MMAC per frame ({total * 100 / 1e9:.3f} GMAC per second of audio), "
          f"of which {recurrence / 1e6:.3f} MMAC in GRU recurrences (sequential over frames)")
    if args.rtf:
        print(f"at RTF {args.rtf}: {2 * total * 100 / args.rtf / 1e9:.1f} GFLOP/s")


if __name__ == "__main__":
    main()
