#!/usr/bin/env python3
"""Small ONNX graphs for the streaming planner, written with the `onnx` package, and onnxruntime's
outputs for each over a whole sequence (the truth a chunk-by-chunk run must reproduce).

OUTDIR/cases/<name>/model.onnx, inputs/<input>.npy, outputs/<output>.npy  (FRAMES frames on the
    symbolic time axis "S"; random weights and inputs from a fixed seed)
      conv1d_dilated    causal time Pad (4, 0) + 1-D Conv, kernel 3, dilation 2, + ReLU
      conv2d_freq_pad   one Pad with time (2, 0) and frequency (1, 1) + 2-D Conv k(3,3), freq stride 2
      gru_two_layers    Transpose → GRU (linear_before_reset 1, no initial_h) → Squeeze → GRU
                        (linear_before_reset 0, non-zero constant initial_h) → Squeeze → Transpose
      gru_batch_major   GRU with layout 1 (batch-major), batch 2; onnxruntime refuses layout 1, so
                        this case's truth is the `onnx` package's reference evaluator
      mixed_chain       DFN3-like chain: causal Pad+Conv, ConvTranspose (freq stride 2), Transpose,
                        Reshape, MatMul, Add, Concat, Einsum grouped linear, GRU, Slice on frequency,
                        Gemm, a (4, 0) Pad + k(5,1) grouped Conv, Mul, Sigmoid, Tanh
OUTDIR/refusals/<name>/model.onnx: graphs the planner must refuse; the node to be named is
    the one called <name> in the graph
      reverse_gru, bidirectional_gru, future_pad (Pad (0, 2) on time + Conv), time_slice (Slice
      starting at frame 1), pad_into_relu (causal Pad feeding a Relu), valid_time_conv (time
      kernel 3 without a Pad), same_time_conv (Conv padding time itself), time_gram (MatMul
      contracting over time), short_pad (Pad (1, 0) before a time kernel of 3), nonzero_pad
      (causal Pad filling with 1), gru_sequence_lens, frame_mixing_reshape ([1,2,S,3] → [1,S,6]),
      time_sum_einsum (bti,bsj->bsj sums over one operand's frames)
"""
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

FRAMES = 42
OPSET = 17
rng = np.random.default_rng(20261130)


def weight(name, shape, scale=None):
    fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else int(shape[0])
    value = rng.standard_normal(shape).astype(np.float32) * np.float32(scale or 1 / np.sqrt(fan_in))
    return numpy_helper.from_array(value.astype(np.float32), name)


def ints(name, values):
    return numpy_helper.from_array(np.array(values, dtype=np.int64), name)


def info(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def model(nodes, inputs, outputs, initializers):
    graph = helper.make_graph(nodes, "streaming", inputs, outputs, initializers)
    result = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=8)
    onnx.checker.check_model(result)
    return result


def time_pad(name, data, output, pads, with_value=False):
    """A constant-mode Pad node plus its pads (and optional zero value) initializers."""
    initializers = [ints(name + "_pads", pads)]
    inputs = [data, name + "_pads"]
    if with_value:
        initializers.append(numpy_helper.from_array(np.array(0, dtype=np.float32), name + "_value"))
        inputs.append(name + "_value")
    return helper.make_node("Pad", inputs, [output], name=name, mode="constant"), initializers


def conv1d_dilated():
    pad, init = time_pad("pad", "x", "padded", [0, 0, 4, 0, 0, 0])
    nodes = [pad,
             helper.make_node("Conv", ["padded", "w", "b"], ["conv"], name="conv", kernel_shape=[3], dilations=[2]),
             helper.make_node("Relu", ["conv"], ["y"], name="relu")]
    return model(nodes, [info("x", [1, 3, "S"])], [info("y", [1, 5, "S"])],
                 init + [weight("w", [5, 3, 3]), weight("b", [5], 0.1)])


def conv2d_freq_pad():
    pad, init = time_pad("pad", "x", "padded", [0, 0, 2, 1, 0, 0, 0, 1], with_value=True)
    nodes = [pad,
             helper.make_node("Conv", ["padded", "w"], ["conv"], name="conv", kernel_shape=[3, 3], strides=[1, 2]),
             helper.make_node("Tanh", ["conv"], ["y"], name="tanh")]
    return model(nodes, [info("x", [1, 2, "S", 10])], [info("y", [1, 4, "S", 5])], init + [weight("w", [4, 2, 3, 3])])


def gru_weights(prefix, hidden, inputs, directions=1):
    return [weight(prefix + "_W", [directions, 3 * hidden, inputs]), weight(prefix + "_R", [directions, 3 * hidden, hidden]),
            weight(prefix + "_B", [directions, 6 * hidden], 0.1)]


def gru_two_layers():
    hidden = 8
    h0 = numpy_helper.from_array(rng.standard_normal((1, 1, hidden)).astype(np.float32) * np.float32(0.5), "h0")
    nodes = [
        helper.make_node("Transpose", ["x"], ["tx"], name="to_time_major", perm=[1, 0, 2]),
        helper.make_node("GRU", ["tx", "g1_W", "g1_R", "g1_B"], ["y1", "h1"], name="gru1", hidden_size=hidden, linear_before_reset=1),
        helper.make_node("Squeeze", ["y1", "axis1"], ["s1"], name="squeeze1"),
        helper.make_node("GRU", ["s1", "g2_W", "g2_R", "g2_B", "", "h0"], ["y2"], name="gru2", hidden_size=hidden),
        helper.make_node("Squeeze", ["y2", "axis1"], ["s2"], name="squeeze2"),
        helper.make_node("Transpose", ["s2"], ["y"], name="to_batch_major", perm=[1, 0, 2]),
    ]
    return model(nodes, [info("x", [1, "S", 6])], [info("y", [1, "S", hidden])],
                 gru_weights("g1", hidden, 6) + gru_weights("g2", hidden, hidden) + [h0, ints("axis1", [1])])


def gru_batch_major():
    hidden = 7
    nodes = [
        helper.make_node("GRU", ["x", "g_W", "g_R", "g_B"], ["gy"], name="gru", hidden_size=hidden, layout=1),
        helper.make_node("Reshape", ["gy", "shape"], ["y"], name="reshape"),
    ]
    return model(nodes, [info("x", [2, "S", 5])], [info("y", [2, "S", hidden])],
                 gru_weights("g", hidden, 5) + [ints("shape", [2, -1, hidden])])


def mixed_chain():
    pad0, init0 = time_pad("pad0", "x", "x_padded", [0, 0, 2, 0, 0, 0, 0, 0], with_value=True)
    pad1, init1 = time_pad("pad1", "a", "a_padded", [0, 0, 4, 0, 0, 0, 0, 0])
    nodes = [
        pad0,
        helper.make_node("Conv", ["x_padded", "c0_w", "c0_b"], ["c0"], name="conv0", kernel_shape=[3, 3], pads=[0, 1, 0, 1]),
        helper.make_node("Relu", ["c0"], ["a"], name="relu0"),
        helper.make_node("ConvTranspose", ["a", "ct_w"], ["up"], name="convt", group=4, kernel_shape=[1, 3], strides=[1, 2],
                         pads=[0, 1, 0, 1], output_padding=[0, 1]),
        helper.make_node("Tanh", ["up"], ["out_up"], name="tanh_up"),
        helper.make_node("Transpose", ["a"], ["a_t"], name="a_t", perm=[0, 2, 3, 1]),
        helper.make_node("Reshape", ["a_t", "flat_shape"], ["a_flat"], name="a_flat"),
        helper.make_node("MatMul", ["a_flat", "mm_w"], ["mm"], name="matmul"),
        helper.make_node("Add", ["mm_b", "mm"], ["mm_biased"], name="bias"),
        helper.make_node("Relu", ["mm_biased"], ["b"], name="relu_b"),
        helper.make_node("Concat", ["b", "z"], ["bz"], name="concat", axis=2),
        helper.make_node("Reshape", ["bz", "group_shape"], ["grouped"], name="grouped"),
        helper.make_node("Einsum", ["grouped", "gl_w"], ["gl"], name="einsum", equation="btgi,gih->btgh"),
        helper.make_node("Reshape", ["gl", "gl_shape"], ["gl_flat"], name="gl_flat"),
        helper.make_node("Transpose", ["gl_flat"], ["gl_time"], name="gl_time", perm=[1, 0, 2]),
        helper.make_node("GRU", ["gl_time", "g_W", "g_R", "g_B"], ["gru_y", "gru_h"], name="gru", hidden_size=6, linear_before_reset=1),
        helper.make_node("Squeeze", ["gru_y", "axis1"], ["gru_s"], name="gru_squeeze"),
        helper.make_node("Transpose", ["gru_s"], ["gru_b"], name="gru_batch", perm=[1, 0, 2]),
        helper.make_node("Sigmoid", ["gru_b"], ["out_gru"], name="sigmoid"),
        helper.make_node("Slice", ["a", "sl_starts", "sl_ends", "sl_axes"], ["a_sliced"], name="freq_slice"),
        helper.make_node("Mul", ["a_sliced", "scale"], ["out_slice"], name="scale_mul"),
        helper.make_node("Reshape", ["b", "gemm_shape"], ["b2"], name="b2"),
        helper.make_node("Gemm", ["b2", "gemm_w", "gemm_c"], ["out_gemm"], name="gemm", transB=1),
        pad1,
        helper.make_node("Conv", ["a_padded", "dp_w"], ["out_dfp"], name="conv_dfp", kernel_shape=[5, 1], group=2),
    ]
    initializers = init0 + init1 + [
        weight("c0_w", [4, 1, 3, 3]), weight("c0_b", [4], 0.1), weight("ct_w", [4, 1, 1, 3]),
        ints("flat_shape", [0, 0, -1]), weight("mm_w", [32, 12]), weight("mm_b", [12], 0.1),
        ints("group_shape", [1, -1, 4, 4]), weight("gl_w", [4, 4, 3]), ints("gl_shape", [1, -1, 12]),
        *gru_weights("g", 6, 12), ints("axis1", [1]),
        ints("sl_starts", [1]), ints("sl_ends", [7]), ints("sl_axes", [3]), weight("scale", [1, 4, 1, 1], 1.0),
        ints("gemm_shape", [-1, 12]), weight("gemm_w", [3, 12]), weight("gemm_c", [3], 0.1),
        weight("dp_w", [2, 2, 5, 1]),
    ]
    outputs = [info("out_up", [1, 4, "S", 16]), info("out_gru", [1, "S", 6]), info("out_slice", [1, 4, "S", 6]),
               info("out_gemm", ["S", 3]), info("out_dfp", [1, 2, "S", 8])]
    return model(nodes, [info("x", [1, 1, "S", 8]), info("z", [1, "S", 4])], outputs, initializers)


def elementwise_chain():
    """The frame-local operators GTCRN, Silero and DNSMOS brought: Pow, Sqrt, Log, PRelu, Max,
    ReduceMean and ReduceMax over non-time axes, Split and BatchNormalization along channels,
    Equal/Not/Cast."""
    nodes = [
        helper.make_node("Pow", ["x", "two"], ["sq"], name="pow"),
        helper.make_node("Add", ["sq", "eps"], ["sq_eps"], name="add_eps"),
        helper.make_node("Sqrt", ["sq_eps"], ["mag"], name="sqrt"),
        helper.make_node("Log", ["mag"], ["logmag"], name="log"),
        helper.make_node("PRelu", ["x", "slope"], ["pr"], name="prelu"),
        helper.make_node("Max", ["pr", "logmag", "floor"], ["mx"], name="max"),
        helper.make_node("BatchNormalization", ["mx", "bn_s", "bn_b", "bn_m", "bn_v"], ["bn"], name="bn"),
        helper.make_node("ReduceMean", ["bn"], ["mean_f"], name="mean_freq", axes=[3], keepdims=1),
        helper.make_node("ReduceMax", ["bn"], ["max_c"], name="max_chan", axes=[1], keepdims=1),
        helper.make_node("Sub", ["bn", "mean_f"], ["centered"], name="center"),
        helper.make_node("Split", ["centered"], ["part_a", "part_b"], name="split", axis=1),
        helper.make_node("Mul", ["part_a", "part_b"], ["out_split"], name="mul_parts"),
        helper.make_node("Equal", ["max_c", "zero"], ["is_zero"], name="equal"),
        helper.make_node("Not", ["is_zero"], ["nonzero"], name="not"),
        helper.make_node("Cast", ["nonzero"], ["mask"], name="cast", to=TensorProto.FLOAT),
        helper.make_node("Mul", ["mask", "max_c"], ["out_max"], name="mask_max"),
    ]
    initializers = [
        numpy_helper.from_array(np.array(2, dtype=np.float32), "two"), numpy_helper.from_array(np.array(1e-3, dtype=np.float32), "eps"),
        weight("slope", [4, 1, 1], 0.3), numpy_helper.from_array(np.array(-0.5, dtype=np.float32), "floor"),
        weight("bn_s", [4]), weight("bn_b", [4], 0.1), weight("bn_m", [4], 0.1),
        numpy_helper.from_array(np.full([4], 1.5, dtype=np.float32), "bn_v"), numpy_helper.from_array(np.array(0, dtype=np.float32), "zero"),
    ]
    outputs = [info("out_split", [1, 2, "S", 6]), info("out_max", [1, 1, "S", 6])]
    return model(nodes, [info("x", [1, 4, "S", 6])], outputs, initializers)


def refusals():
    x4 = [info("x", [1, 2, "S", 6])]
    y4 = [info("y", ["?"] * 4)]
    cases = {}
    for direction, name in (("reverse", "reverse_gru"), ("bidirectional", "bidirectional_gru")):
        d = 2 if direction == "bidirectional" else 1
        cases[name] = model(
            [helper.make_node("Transpose", ["x"], ["tx"], name="to_time_major", perm=[1, 0, 2]),
             helper.make_node("GRU", ["tx", "g_W", "g_R"], ["y"], name=name, hidden_size=4, direction=direction)],
            [info("x", [1, "S", 3])], [info("y", ["S", d, 1, 4])], gru_weights("g", 4, 3, d)[:2])
    pad, init = time_pad("future_pad", "x", "padded", [0, 0, 0, 0, 0, 0, 2, 0])
    cases["future_pad"] = model(
        [pad, helper.make_node("Conv", ["padded", "w"], ["y"], name="conv", kernel_shape=[3, 1])],
        x4, y4, init + [weight("w", [2, 2, 3, 1])])
    cases["time_slice"] = model(
        [helper.make_node("Slice", ["x", "starts", "ends", "axes"], ["y"], name="time_slice")],
        x4, y4, [ints("starts", [1]), ints("ends", [1 << 40]), ints("axes", [2])])
    pad, init = time_pad("pad_into_relu", "x", "padded", [0, 0, 2, 0, 0, 0, 0, 0])
    cases["pad_into_relu"] = model([pad, helper.make_node("Relu", ["padded"], ["y"], name="relu")], x4, y4, init)
    cases["valid_time_conv"] = model(
        [helper.make_node("Conv", ["x", "w"], ["y"], name="valid_time_conv", kernel_shape=[3, 1])],
        x4, y4, [weight("w", [2, 2, 3, 1])])
    cases["same_time_conv"] = model(
        [helper.make_node("Conv", ["x", "w"], ["y"], name="same_time_conv", kernel_shape=[3, 1], pads=[1, 0, 1, 0])],
        x4, y4, [weight("w", [2, 2, 3, 1])])
    cases["time_gram"] = model(
        [helper.make_node("Transpose", ["x"], ["xt"], name="transpose", perm=[0, 2, 1]),
         helper.make_node("MatMul", ["xt", "x"], ["y"], name="time_gram")],
        [info("x", [1, "S", 4])], [info("y", [1, 4, 4])], [])
    pad, init = time_pad("short_pad", "x", "padded", [0, 0, 1, 0, 0, 0, 0, 0])
    cases["short_pad"] = model(
        [pad, helper.make_node("Conv", ["padded", "w"], ["y"], name="conv", kernel_shape=[3, 1])],
        x4, y4, init + [weight("w", [2, 2, 3, 1])])
    pad, init = time_pad("nonzero_pad", "x", "padded", [0, 0, 2, 0, 0, 0, 0, 0])
    pad.input.append("one")
    cases["nonzero_pad"] = model(
        [pad, helper.make_node("Conv", ["padded", "w"], ["y"], name="conv", kernel_shape=[3, 1])],
        x4, y4, init + [weight("w", [2, 2, 3, 1]), numpy_helper.from_array(np.array(1, dtype=np.float32), "one")])
    cases["gru_sequence_lens"] = model(
        [helper.make_node("Transpose", ["x"], ["tx"], name="to_time_major", perm=[1, 0, 2]),
         helper.make_node("GRU", ["tx", "g_W", "g_R", "", "lengths"], ["y"], name="gru_sequence_lens", hidden_size=4)],
        [info("x", [1, "S", 3])], [info("y", ["S", 1, 1, 4])],
        gru_weights("g", 4, 3)[:2] + [numpy_helper.from_array(np.array([3], dtype=np.int32), "lengths")])
    cases["frame_mixing_reshape"] = model(
        [helper.make_node("Reshape", ["x", "shape"], ["y"], name="frame_mixing_reshape")],
        [info("x", [1, 2, "S", 3])], [info("y", [1, "S", 6])], [ints("shape", [1, -1, 6])])
    cases["time_mean"] = model(
        [helper.make_node("ReduceMean", ["x"], ["y"], name="time_mean", axes=[2], keepdims=1)], x4, y4, [])
    cases["time_split"] = model(
        [helper.make_node("Split", ["x"], ["y", "y2"], name="time_split", axis=2)], x4, [info("y", ["?"] * 4), info("y2", ["?"] * 4)], [])
    cases["time_sum_einsum"] = model(
        [helper.make_node("Einsum", ["x", "x"], ["y"], name="time_sum_einsum", equation="bti,bsj->bsj")],
        [info("x", [1, "S", 4])], [info("y", [1, "S", 4])], [])
    return cases


def write_case(folder, onnx_model):
    os.makedirs(os.path.join(folder, "inputs"))
    os.makedirs(os.path.join(folder, "outputs"))
    onnx.save(onnx_model, os.path.join(folder, "model.onnx"))
    feeds = {}
    for graph_input in onnx_model.graph.input:
        shape = [FRAMES if d.dim_param == "S" else d.dim_value for d in graph_input.type.tensor_type.shape.dim]
        feeds[graph_input.name] = rng.standard_normal(shape).astype(np.float32)
        np.save(os.path.join(folder, "inputs", graph_input.name + ".npy"), feeds[graph_input.name])
    if any(a.name == "layout" and a.i == 1 for n in onnx_model.graph.node for a in n.attribute):
        values = ReferenceEvaluator(onnx_model).run(None, feeds)
    else:
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        options.intra_op_num_threads = 1
        session = ort.InferenceSession(onnx_model.SerializeToString(), options, providers=["CPUExecutionProvider"])
        values = session.run(None, feeds)
    for graph_output, value in zip(onnx_model.graph.output, values):
        np.save(os.path.join(folder, "outputs", graph_output.name + ".npy"), np.ascontiguousarray(value, dtype=np.float32))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen-streaming-graphs.py OUTDIR")
    out = sys.argv[1]
    for make in (conv1d_dilated, conv2d_freq_pad, gru_two_layers, gru_batch_major, mixed_chain, elementwise_chain):
        write_case(os.path.join(out, "cases", make.__name__), make())
    for name, onnx_model in refusals().items():
        os.makedirs(os.path.join(out, "refusals", name))
        onnx.save(onnx_model, os.path.join(out, "refusals", name, "model.onnx"))
    with open(os.path.join(out, "VERSIONS"), "w") as f:
        f.write(f"onnx {onnx.__version__}\nonnxruntime {ort.__version__}\nnumpy {np.__version__}\nframes {FRAMES}\n")


if __name__ == "__main__":
    main()
