#!/usr/bin/env python3
"""Writes 1-D Conv graphs with few output positions per image (as a layer run one frame at a
time has) and onnxruntime's outputs into OUTDIR, in the layout of the ONNX backend node tests
(OUTDIR/<case>/model.onnx, test_data_set_0/input_<i>.pb, output_<i>.pb), their names in
OUTDIR/cases.txt, one a line. W and B are initializers, as in the models, so that the engine
may read W re-laid: Silero VAD's STFT and encoder layers, a fused activation and skip addition,
batches, asymmetric pads, output channels beyond a multiple of 16 or fewer than 16 of one tap,
and forms just outside the few-position path (five positions, a dilation, few outputs of
several taps) that must still match.
"""
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper

from node_cases import write_node_cases

rng = np.random.default_rng(20261203)


def normal(*shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def case(name, x, w, bias=None, activation=None, residual=False, **attributes):
    """Conv(x, W[, B]), then the activation node and an addition of the graph input r."""
    initializers = [numpy_helper.from_array(w, "w")] + ([numpy_helper.from_array(bias, "b")] if bias is not None else [])
    nodes = [helper.make_node("Conv", ["x", "w"] + (["b"] if bias is not None else []), ["conv"], **attributes)]
    last = "conv"
    if activation:
        nodes.append(helper.make_node(activation, [last], ["activated"]))
        last = "activated"
    inputs = [("x", x)]
    if residual:
        session = ort.InferenceSession(onnx_model(name, nodes, [("x", x)], last, initializers).SerializeToString(),
                                       providers=["CPUExecutionProvider"])
        shape = session.run(None, {"x": x})[0].shape
        inputs.append(("r", normal(*shape)))
        nodes.append(helper.make_node("Add", [last, "r"], ["sum"]))
        last = "sum"
    model = onnx_model(name, nodes, inputs, last, initializers)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return name, model, [a for _, a in inputs], session.run(None, dict(inputs))


def onnx_model(name, nodes, inputs, output, initializers):
    graph = helper.make_graph(
        nodes, name, [helper.make_tensor_value_info(n, onnx.TensorProto.FLOAT, a.shape) for n, a in inputs],
        [helper.make_tensor_value_info(output, onnx.TensorProto.FLOAT, None)], initializers)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def cases():
    # Silero VAD at 16 kHz: the STFT as a convolution over four frames (258 outputs: 16 beyond
    # the packed 256 would be 2), then the encoder's four layers with ReLU (4, 2, 1, 1 positions).
    yield case("silero_stft", normal(1, 1, 640), normal(258, 1, 256, scale=0.0625), kernel_shape=[256], strides=[128])
    yield case("silero_encoder0_relu", normal(1, 129, 4), normal(128, 129, 3, scale=0.05), normal(128), "Relu",
               kernel_shape=[3], pads=[1, 1])
    yield case("silero_encoder1_relu", normal(1, 128, 4), normal(64, 128, 3, scale=0.05), normal(64), "Relu",
               kernel_shape=[3], pads=[1, 1], strides=[2])
    yield case("silero_encoder2_relu", normal(1, 64, 2), normal(64, 64, 3, scale=0.07), normal(64), "Relu",
               kernel_shape=[3], pads=[1, 1], strides=[2])
    yield case("silero_encoder3_relu", normal(1, 64, 1), normal(128, 64, 3, scale=0.07), normal(128), "Relu",
               kernel_shape=[3], pads=[1, 1])
    # Three positions of two images, asymmetric pads, a sigmoid; 20 outputs (4 beyond 16) of
    # three images at a stride of 3; a skip addition fused after the convolution.
    yield case("three_positions_batch2_sigmoid", normal(2, 20, 7), normal(48, 20, 3, scale=0.2), normal(48), "Sigmoid",
               kernel_shape=[3], pads=[0, 1], strides=[2])
    yield case("twenty_outputs_batch3", normal(3, 5, 9), normal(20, 5, 4, scale=0.4), normal(20),
               kernel_shape=[4], pads=[1, 0], strides=[3])
    yield case("residual_relu", normal(1, 16, 4), normal(32, 16, 3, scale=0.25), normal(32), "Relu", residual=True,
               kernel_shape=[3], pads=[1, 1])
    yield case("one_position_no_bias", normal(1, 40, 3), normal(16, 40, 3, scale=0.15), kernel_shape=[3])
    # One tap: Silero's decoder (one output, summed directly), fewer than 16 outputs over three
    # positions of two images, and 20 outputs (4 summed directly over 37 channels).
    yield case("silero_decoder_sigmoid", normal(1, 128, 1), normal(1, 128, 1, scale=0.09), normal(1), "Sigmoid", kernel_shape=[1])
    yield case("pointwise_five_outputs_batch2", normal(2, 20, 3), normal(5, 20, 1, scale=0.2), normal(5), kernel_shape=[1])
    yield case("pointwise_twenty_outputs", normal(1, 37, 2), normal(20, 37, 1, scale=0.16), normal(20), "Relu", kernel_shape=[1])
    # Just outside the path: five positions, a dilation, fewer than 16 outputs of three taps.
    yield case("five_positions", normal(1, 8, 5), normal(16, 8, 1, scale=0.3), normal(16), kernel_shape=[1])
    yield case("dilated", normal(1, 6, 6), normal(16, 6, 2, scale=0.3), normal(16), kernel_shape=[2], dilations=[3])
    yield case("eight_outputs", normal(1, 6, 4), normal(8, 6, 3, scale=0.3), normal(8), kernel_shape=[3], pads=[1, 1])


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen-few-position-convs.py OUTDIR")
    write_node_cases(sys.argv[1], cases(), "gen-few-position-convs")


if __name__ == "__main__":
    main()
