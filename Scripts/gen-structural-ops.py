#!/usr/bin/env python3
"""Writes single-node models of Split, ReduceMean, ReduceMax, ScatterND, MaxPool and
BatchNormalization with onnxruntime's outputs into OUTDIR, in the layout of the ONNX backend
node tests (OUTDIR/<case>/model.onnx, test_data_set_0/input_<i>.pb, output_<i>.pb), their names
in OUTDIR/cases.txt, one a line. They cover what the ONNX suite leaves out and the models
(GTCRN, Silero VAD, DNSMOS) use: older opsets (attribute forms), the shapes those models
reduce, pool and normalise, element-wise cache writes, negative indices, and the vector tails
of the float32 kernels.
"""
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper

from node_cases import write_node_cases

rng = np.random.default_rng(20261202)
ONNX_TYPES = {np.float32: onnx.TensorProto.FLOAT, np.float64: onnx.TensorProto.DOUBLE,
              np.int32: onnx.TensorProto.INT32, np.int64: onnx.TensorProto.INT64, np.bool_: onnx.TensorProto.BOOL}


def case(name, op, opset, inputs, outputs, initializers=None, **attributes):
    """inputs: list of (name, array) fed at run time; initializers: (name, array) in the graph;
    outputs: names. The node's inputs are the inputs then the initializers, unless `order` says."""
    initializers = initializers or []
    order = attributes.pop("order", [n for n, _ in inputs] + [n for n, _ in initializers])
    node = helper.make_node(op, order, outputs, **attributes)
    graph = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info(n, ONNX_TYPES[a.dtype.type], a.shape) for n, a in inputs],
        # Outputs have the data's type, MaxPool's Indices int64.
        [helper.make_tensor_value_info(n, onnx.TensorProto.INT64 if n == "indices" else ONNX_TYPES[inputs[0][1].dtype.type], None)
         for n in outputs],
        [numpy_helper.from_array(a, n) for n, a in initializers])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    results = session.run(None, {n: a for n, a in inputs})
    return name, model, [a for _, a in inputs], results


def normal(*shape, dtype=np.float32):
    return rng.standard_normal(shape).astype(dtype)


def cases():
    # Reductions: GTCRN's LayerNorm-like means over the last axes, Silero's over one axis, DNSMOS's
    # max over [1, 2] of an NHWC tensor; mixed reduced/kept axes, vector tails, negative-only data.
    yield case("reduce_mean_trailing_axes_opset11", "ReduceMean", 11, [("x", normal(1, 16, 1, 33))], ["y"], axes=[2, 3], keepdims=1)
    yield case("reduce_mean_last_axis_opset11", "ReduceMean", 11, [("x", normal(2, 16, 33))], ["y"], axes=[-1], keepdims=0)
    yield case("reduce_mean_middle_axis_opset13", "ReduceMean", 13, [("x", normal(2, 37, 19))], ["y"], axes=[1], keepdims=1)
    yield case("reduce_mean_all_axes_float64_opset13", "ReduceMean", 13, [("x", normal(3, 4, 5, dtype=np.float64))], ["y"], keepdims=0)
    yield case("reduce_mean_int32_opset13", "ReduceMean", 13, [("x", rng.integers(-50, 50, (4, 7)).astype(np.int32))], ["y"], axes=[1])
    yield case("reduce_mean_axes_input_opset18", "ReduceMean", 18, [("x", normal(3, 5, 17))], ["y"],
               [("axes", np.array([0, -1], np.int64))], keepdims=0)
    yield case("reduce_mean_noop_empty_axes_opset18", "ReduceMean", 18, [("x", normal(3, 4))], ["y"],
               [("axes", np.array([], np.int64))], noop_with_empty_axes=1)
    yield case("reduce_max_nhwc_axes12_opset12", "ReduceMax", 12, [("x", normal(1, 6, 5, 64))], ["y"], axes=[1, 2], keepdims=0)
    yield case("reduce_max_mixed_axes_opset13", "ReduceMax", 13, [("x", normal(3, 4, 5, 6))], ["y"], axes=[0, 2], keepdims=1)
    yield case("reduce_max_negative_data_opset13", "ReduceMax", 13, [("x", -np.abs(normal(2, 3, 11)) - 1)], ["y"], axes=[2], keepdims=1)
    yield case("reduce_max_int64_axes_input_opset18", "ReduceMax", 18, [("x", rng.integers(-1000, 1000, (3, 9)).astype(np.int64))], ["y"],
               [("axes", np.array([-1], np.int64))], keepdims=0)

    # Split: attribute form, input form with a negative axis, num_outputs with an uneven last part.
    yield case("split_attribute_opset11", "Split", 11, [("x", normal(2, 10, 3))], ["a", "b", "c"], axis=1, split=[3, 3, 4])
    yield case("split_input_negative_axis_opset13", "Split", 13, [("x", normal(4, 6))], ["a", "b"],
               [("split", np.array([1, 5], np.int64))], axis=-1)
    yield case("split_uneven_num_outputs_opset18", "Split", 18, [("x", normal(3, 7))], ["a", "b", "c"], axis=-1, num_outputs=3)
    yield case("split_int64_equal_parts_opset13", "Split", 13, [("x", rng.integers(-9, 9, (6, 2)).astype(np.int64))], ["a", "b", "c"])
    yield case("split_bool_opset13", "Split", 13, [("x", rng.integers(0, 2, (4, 2)).astype(np.bool_))], ["a", "b"])

    # ScatterND: GTCRN's element-wise cache write (constant indices of depth 4), negative and
    # slice indices, reductions with repeated indices.
    cache = normal(1, 16, 16, 33)
    positions = np.stack(np.meshgrid(np.arange(1), np.arange(16), np.arange(6, 8), np.arange(33), indexing="ij"), axis=-1).astype(np.int64)
    yield case("scatternd_elementwise_cache_opset11", "ScatterND", 11, [("data", cache), ("updates", normal(1, 16, 2, 33))], ["y"],
               [("indices", positions)], order=["data", "indices", "updates"])
    yield case("scatternd_negative_indices_opset11", "ScatterND", 11,
               [("data", normal(5, 3)), ("indices", np.array([[-1], [1], [-5]], np.int64)), ("updates", normal(3, 3))], ["y"])
    yield case("scatternd_add_repeated_opset16", "ScatterND", 16,
               [("data", normal(4, 3)), ("indices", np.array([[0], [2], [0]], np.int64)), ("updates", normal(3, 3))], ["y"], reduction="add")
    yield case("scatternd_mul_float64_opset18", "ScatterND", 18,
               [("data", normal(2, 3, 4, dtype=np.float64)), ("indices", np.array([[1, 2], [0, 0]], np.int64)),
                ("updates", normal(2, 4, dtype=np.float64))], ["y"], reduction="mul")
    yield case("scatternd_int64_elements_opset13", "ScatterND", 13,
               [("data", rng.integers(-9, 9, (3, 4)).astype(np.int64)), ("indices", np.array([[2, 3], [0, 1], [1, 0]], np.int64)),
                ("updates", np.array([100, 200, 300], np.int64))], ["y"])

    # MaxPool: DNSMOS's 2×2 / stride 2 on an odd-sized map, ceil_mode with pads, 1-D with
    # dilations, SAME_LOWER with an odd total pad, indices in both storage orders across batches
    # and channels.
    yield case("maxpool_2x2_valid_odd_opset12", "MaxPool", 12, [("x", normal(1, 32, 25, 40))], ["y"],
               kernel_shape=[2, 2], strides=[2, 2], auto_pad="VALID")
    yield case("maxpool_ceil_pads_opset12", "MaxPool", 12, [("x", normal(1, 2, 9, 10))], ["y"],
               kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 0, 0], ceil_mode=1)
    yield case("maxpool_1d_dilations_pads_opset12", "MaxPool", 12, [("x", normal(2, 3, 17))], ["y"],
               kernel_shape=[3], strides=[2], dilations=[2], pads=[2, 1])
    yield case("maxpool_same_lower_odd_opset12", "MaxPool", 12, [("x", normal(1, 2, 9, 8))], ["y"],
               kernel_shape=[4, 3], strides=[2, 2], auto_pad="SAME_LOWER")
    yield case("maxpool_2d_indices_pads_opset12", "MaxPool", 12, [("x", normal(2, 3, 7, 6))], ["y", "indices"],
               kernel_shape=[3, 2], strides=[2, 2], pads=[1, 0, 1, 1])
    yield case("maxpool_3d_indices_column_major_opset12", "MaxPool", 12, [("x", normal(1, 2, 5, 6, 7))], ["y", "indices"],
               kernel_shape=[2, 3, 2], strides=[2, 2, 3], storage_order=1)
    yield case("maxpool_float64_opset12", "MaxPool", 12, [("x", normal(1, 2, 6, 6, dtype=np.float64))], ["y"],
               kernel_shape=[3, 3], strides=[1, 1], pads=[1, 1, 1, 1])

    # BatchNormalization: GTCRN's inference form (opset 11) on its feature maps, 1-D spatial
    # float64 (opset 9), no spatial axes (opset 15), parameters as run-time inputs.
    def parameters(channels, dtype=np.float32):
        return [("scale", normal(channels, dtype=dtype)), ("bias", normal(channels, dtype=dtype)),
                ("mean", normal(channels, dtype=dtype)), ("var", (rng.uniform(0.1, 2.0, channels)).astype(dtype))]
    yield case("batchnorm_feature_map_opset11", "BatchNormalization", 11, [("x", normal(1, 16, 63, 33))], ["y"],
               parameters(16), epsilon=1e-5, momentum=0.9)
    yield case("batchnorm_1d_float64_opset9", "BatchNormalization", 9, [("x", normal(2, 5, 7, dtype=np.float64))], ["y"],
               parameters(5, np.float64), epsilon=1e-3)
    yield case("batchnorm_runtime_parameters_opset15", "BatchNormalization", 15, [("x", normal(3, 4))] + parameters(4), ["y"])


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen-structural-ops.py OUTDIR")
    write_node_cases(sys.argv[1], cases(), "gen-structural-ops")


if __name__ == "__main__":
    main()
