#!/usr/bin/env python3
"""Writes small graphs of Pow, Sqrt, Log, Max, PRelu, Equal, Not and Size with onnxruntime's
outputs into OUTDIR, in the shapes and patterns the speech models use them (GTCRN's PRelu
slopes of shape [C, 1, 1] and [1, 1, 1], Pow by a constant 2 or 0.5, DNSMOS's
log(max(1e-12, sqrt(x)^2)), Silero's Not(Equal(Size(Shape(x)), 2))) plus the broadcasting forms
the ONNX node suite does not cover (Max over three shapes, Pow with a broadcast exponent).

Layout (the same as the ONNX node suite's, see gen-onnx-conformance.py):
  OUTDIR/<case>/model.onnx
  OUTDIR/<case>/test_data_set_0/input_<i>.pb, output_<i>.pb   (serialised TensorProto)
  OUTDIR/cases.txt   one case name a line
"""
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

TYPES = {np.float32: TensorProto.FLOAT, np.float64: TensorProto.DOUBLE, np.int64: TensorProto.INT64,
         np.bool_: TensorProto.BOOL}


def write_case(out, name, nodes, inputs, outputs, constants=(), opset=17):
    """inputs: name → array fed at run time; outputs: (name, numpy type); constants: name → array."""
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info(n, TYPES[a.dtype.type], a.shape) for n, a in inputs.items()],
        [helper.make_tensor_value_info(n, TYPES[t], None) for n, t in outputs],
        initializer=[numpy_helper.from_array(a, n) for n, a in dict(constants).items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    results = session.run(None, inputs)
    for info, value in zip(model.graph.output, results):
        info.CopyFrom(helper.make_tensor_value_info(info.name, info.type.tensor_type.elem_type, value.shape))
    onnx.checker.check_model(model, full_check=True)
    folder = os.path.join(out, name)
    data = os.path.join(folder, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    onnx.save(model, os.path.join(folder, "model.onnx"))
    for prefix, values, names in (("input", list(inputs.values()), list(inputs)), ("output", results, [n for n, _ in outputs])):
        for i, (value, value_name) in enumerate(zip(values, names)):
            with open(os.path.join(data, f"{prefix}_{i}.pb"), "wb") as f:
                f.write(numpy_helper.from_array(np.asarray(value), value_name).SerializeToString())
    return name


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen-elementwise-ops.py OUTDIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(20261201)
    f32 = np.float32
    node = helper.make_node
    names = []

    # PRelu: one slope per channel (33 frequencies: vector steps and a tail), and one for all.
    x = rng.normal(size=(1, 16, 10, 33)).astype(f32)
    slope = rng.uniform(-0.5, 0.8, (16, 1, 1)).astype(f32)
    names.append(write_case(out, "prelu_channel_slopes", [node("PRelu", ["x", "slope"], ["y"])],
                            {"x": x}, [("y", f32)], {"slope": slope}))
    names.append(write_case(out, "prelu_shared_slope", [node("PRelu", ["x", "slope"], ["y"])],
                            {"x": rng.normal(size=(1, 8, 5, 9)).astype(f32)}, [("y", f32)],
                            {"slope": np.array([[[0.27]]], f32)}))
    names.append(write_case(out, "prelu_slope_input_float64", [node("PRelu", ["x", "slope"], ["y"])],
                            {"x": rng.normal(size=(3, 4, 5)), "slope": rng.uniform(0, 1, (4, 1))},
                            [("y", np.float64)]))

    # Pow by a constant 2 and 0.5 (spectral magnitudes), and with an exponent broadcast over X.
    names.append(write_case(out, "pow_constant_square", [node("Pow", ["x", "two"], ["y"])],
                            {"x": (rng.normal(size=(2, 257, 7)) * 10).astype(f32)}, [("y", f32)],
                            {"two": np.array(2, f32)}))
    names.append(write_case(out, "pow_constant_square_root", [node("Pow", ["x", "half"], ["y"])],
                            {"x": rng.uniform(0, 100, (2, 257, 7)).astype(f32)}, [("y", f32)],
                            {"half": np.array(0.5, f32)}))
    names.append(write_case(out, "pow_broadcast_exponent", [node("Pow", ["x", "e"], ["y"])],
                            {"x": rng.uniform(0.1, 4, (3, 1, 5)).astype(f32), "e": rng.uniform(-3, 3, (4, 1)).astype(f32)},
                            [("y", f32)]))

    # Sqrt and Log over lengths with vector tails, zeros and (for Sqrt) negative values.
    x = rng.uniform(-1, 9, 1003).astype(f32)
    x[:4] = [0, -0.0, 4, 1e-30]
    names.append(write_case(out, "sqrt_float32", [node("Sqrt", ["x"], ["y"])], {"x": x}, [("y", f32)]))
    names.append(write_case(out, "log_float32", [node("Log", ["x"], ["y"])],
                            {"x": np.exp(rng.uniform(-30, 30, 1003)).astype(f32)}, [("y", f32)]))
    x = rng.uniform(0, 50, 37)
    names.append(write_case(out, "sqrt_log_float64", [node("Sqrt", ["x"], ["s"]), node("Log", ["x"], ["l"])],
                            {"x": x}, [("s", np.float64), ("l", np.float64)]))

    # Max: three inputs that broadcast to [3, 5, 4]; DNSMOS's floor; int64 against a row.
    names.append(write_case(out, "max_three_broadcast", [node("Max", ["a", "b", "c"], ["y"])],
                            {"a": rng.normal(size=(3, 1, 4)).astype(f32), "b": rng.normal(size=(1, 5, 1)).astype(f32),
                             "c": rng.normal(size=4).astype(f32)}, [("y", f32)]))
    spectrum = rng.normal(size=(1, 30, 120)).astype(f32)
    spectrum[0, :3, :5] = 0
    names.append(write_case(out, "dnsmos_log_power",
                            [node("Sqrt", ["x"], ["magnitude"]), node("Pow", ["magnitude", "two"], ["power"]),
                             node("Max", ["floor", "power"], ["floored"]), node("Log", ["floored"], ["y"])],
                            {"x": np.abs(spectrum)}, [("y", f32)],
                            {"two": np.array(2, f32), "floor": np.array(1e-12, f32)}, opset=12))
    names.append(write_case(out, "max_int64_row", [node("Max", ["a", "b"], ["y"])],
                            {"a": rng.integers(-9, 9, (2, 3)), "b": rng.integers(-9, 9, 3)}, [("y", np.int64)]))

    # Equal with broadcasting over floats with repeated values; Silero's rank check.
    a = rng.integers(0, 3, (4, 5)).astype(f32)
    names.append(write_case(out, "equal_float_broadcast", [node("Equal", ["a", "b"], ["y"])],
                            {"a": a, "b": np.array([0, 1, 2, 1, 0], f32)}, [("y", np.bool_)]))
    names.append(write_case(out, "equal_int64_not", [node("Equal", ["a", "one"], ["e"]), node("Not", ["e"], ["y"])],
                            {"a": np.array([1, 3, 1], np.int64)}, [("y", np.bool_)], {"one": np.array([1], np.int64)}))
    names.append(write_case(out, "silero_rank_check",
                            [node("Shape", ["x"], ["shape"]), node("Size", ["shape"], ["rank"]),
                             node("Equal", ["rank", "two"], ["is_matrix"]), node("Not", ["is_matrix"], ["y"])],
                            {"x": rng.normal(size=(2, 3)).astype(f32)}, [("y", np.bool_)],
                            {"two": np.array(2, np.int64)}, opset=16))
    # Size decides a shape: Reshape's target must be known while planning.
    names.append(write_case(out, "size_flattens",
                            [node("Size", ["x"], ["count"]), node("Unsqueeze", ["count", "axes"], ["target"]),
                             node("Reshape", ["x", "target"], ["y"])],
                            {"x": rng.normal(size=(2, 3, 4)).astype(f32)}, [("y", f32)],
                            {"axes": np.array([0], np.int64)}, opset=13))

    with open(os.path.join(out, "cases.txt"), "w") as f:
        f.write("\n".join(names) + "\n")
    print(f"gen-elementwise-ops: {len(names)} cases (onnxruntime {ort.__version__})", file=sys.stderr)


if __name__ == "__main__":
    main()
