#!/usr/bin/env python3
"""Writes onnxruntime's results for single LSTM and GRU nodes into OUTDIR, so that the engine's
reading of the ONNX recurrent operators is checked against a runtime we did not write:

  lstm.json  seeded random LSTM nodes: forward, reverse and bidirectional; batch 1 and several
             (also more than the four rows the row-dot recurrence takes); hidden sizes from 1 to
             128, with Silero VAD's layer (input 128, hidden 128, batch 1, one step, initial h
             and c given); with and without bias, peepholes, initial states and sequence_lens
             (including a row of length 0); layout 1; input_forget.
  gru.json   GRU nodes of exactly the forms GTCRN uses (linear_before_reset = 1, opset 11):
             forward H = 16 at batch 1, forward H = 8 at batch 33 (GTCRN's frequency axis as
             the batch), bidirectional H = 4 over 33 steps, each with initial_h and bias, and
             each also over a few more steps than the model runs so that the recurrence is used.

Each file: {"onnxruntime": version, "cases": [case, ...]}, a case being
  name, op, opset, ints {attribute: int}, strings {attribute: string},
  inputs  [{"shape": [...], "values": [...]} or null for an absent optional input, by position;
           sequence_lens (position 4) holds int32 values],
  outputs [{"shape": [...], "values": [...]}: Y, Y_h (and Y_c for LSTM)]
with flat row-major value lists.
"""
import json
import os
import sys

import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper

INPUT_NAMES = {
    "LSTM": ["X", "W", "R", "B", "sequence_lens", "initial_h", "initial_c", "P"],
    "GRU": ["X", "W", "R", "B", "sequence_lens", "initial_h"],
}
OUTPUT_NAMES = {"LSTM": ["Y", "Y_h", "Y_c"], "GRU": ["Y", "Y_h"]}


def run_node(op, opset, attributes, inputs):
    """onnxruntime's outputs of one `op` node; `inputs` by position, None where absent."""
    names = [name if value is not None else "" for name, value in zip(INPUT_NAMES[op], inputs)]
    while names and names[-1] == "":
        names.pop()
    node = helper.make_node(op, names, OUTPUT_NAMES[op], **attributes)
    graph_inputs = [
        helper.make_tensor_value_info(name, TensorProto.INT32 if name == "sequence_lens" else TensorProto.FLOAT, None)
        for name in names if name]
    graph_outputs = [helper.make_tensor_value_info(name, TensorProto.FLOAT, None) for name in OUTPUT_NAMES[op]]
    model = helper.make_model(
        helper.make_graph([node], op.lower(), graph_inputs, graph_outputs),
        opset_imports=[helper.make_opsetid("", opset)], ir_version=8)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    feeds = {name: value for name, value in zip(names, inputs) if name}
    return session.run(None, feeds)


def tensor(value):
    return None if value is None else {"shape": list(value.shape), "values": value.ravel().tolist()}


def run_batch_major(op, opset, attributes, inputs):
    """`run_node` for layout = 1, which onnxruntime's CPU kernels refuse: by the definition of
    the layout, X [B, T, I] and the states [B, D, H] transposed to layout 0's [T, B, I] and
    [D, B, H], and Y [T, D, B, H] and the final states transposed back."""
    swap = lambda value: None if value is None else np.ascontiguousarray(value.swapaxes(0, 1))
    sequence_major = [swap(inputs[0])] + inputs[1:5] + [swap(value) for value in inputs[5:7]] + inputs[7:]
    outputs = run_node(op, opset, {**attributes, "layout": 0}, sequence_major)
    return [np.ascontiguousarray(outputs[0].transpose(2, 0, 1, 3))] + [swap(value) for value in outputs[1:]]


def make_case(name, op, opset, ints, strings, inputs):
    attributes = {**ints, **strings}
    run = run_batch_major if attributes.get("layout", 0) == 1 else run_node
    outputs = run(op, opset, attributes, inputs)
    return {"name": name, "op": op, "opset": opset, "ints": ints, "strings": strings,
            "inputs": [tensor(value) for value in inputs], "outputs": [tensor(value) for value in outputs]}


def recurrent_inputs(rng, gates, steps, batch, input_size, hidden, directions, layout,
                     bias, lengths, initial_states):
    """X, W, R, B, sequence_lens and the initial states. Weights ~ U(±1/sqrt(H)) as PyTorch
    initialises them, so that the states neither saturate nor vanish."""
    scale = 1 / np.sqrt(hidden)
    x_shape = (batch, steps, input_size) if layout else (steps, batch, input_size)
    state_shape = (batch, directions, hidden) if layout else (directions, batch, hidden)
    x = rng.uniform(-2, 2, x_shape).astype(np.float32)
    w = rng.uniform(-scale, scale, (directions, gates * hidden, input_size)).astype(np.float32)
    r = rng.uniform(-scale, scale, (directions, gates * hidden, hidden)).astype(np.float32)
    b = rng.uniform(-1, 1, (directions, 2 * gates * hidden)).astype(np.float32) if bias else None
    seq = np.array(lengths, dtype=np.int32) if lengths is not None else None
    states = [rng.uniform(-1, 1, state_shape).astype(np.float32) if initial_states else None
              for _ in range(2 if gates == 4 else 1)]
    return [x, w, r, b, seq] + states


def lstm_cases(rng):
    configurations = [
        # name, steps, batch, input, hidden, direction, layout, bias, peepholes, lengths, initial, input_forget
        ("silero_vad", 1, 1, 128, 128, "forward", 0, True, False, None, True, 0),
        ("silero_vad_steps", 5, 1, 128, 128, "forward", 0, True, False, None, True, 0),
        ("silero_vad_batch", 1, 5, 128, 128, "forward", 0, True, False, None, True, 0),
        ("forward_lengths", 6, 3, 5, 13, "forward", 0, True, True, [6, 2, 4], True, 0),
        ("reverse_lengths", 6, 3, 5, 13, "reverse", 0, True, True, [6, 2, 4], True, 0),
        ("bidirectional_lengths", 4, 2, 3, 16, "bidirectional", 0, True, True, [1, 4], True, 0),
        ("bidirectional_defaults", 7, 4, 9, 8, "bidirectional", 0, False, False, None, False, 0),
        ("forward_batch6", 3, 6, 4, 8, "forward", 0, True, True, None, True, 0),
        ("reverse_h32", 8, 1, 16, 32, "reverse", 0, True, True, None, True, 0),
        ("forward_h1", 3, 1, 4, 1, "forward", 0, True, True, None, False, 0),
        ("forward_no_bias", 4, 2, 6, 12, "forward", 0, False, True, None, True, 0),
        ("input_forget", 4, 2, 6, 10, "forward", 0, True, True, None, True, 1),
        ("input_forget_bidirectional", 5, 3, 6, 12, "bidirectional", 0, True, False, [5, 1, 3], True, 1),
        ("layout1_forward", 5, 2, 7, 12, "forward", 1, True, True, [5, 3], True, 0),
        ("layout1_bidirectional", 5, 2, 7, 12, "bidirectional", 1, True, False, None, True, 0),
        ("layout1_reverse_zero_length", 5, 3, 5, 6, "reverse", 1, True, True, [5, 0, 2], True, 0),
        ("layout1_defaults", 3, 2, 4, 20, "forward", 1, False, False, None, False, 0),
    ]
    cases = []
    for name, steps, batch, input_size, hidden, direction, layout, bias, peepholes, lengths, initial, input_forget in configurations:
        d = 2 if direction == "bidirectional" else 1
        inputs = recurrent_inputs(rng, 4, steps, batch, input_size, hidden, d, layout, bias, lengths, initial)
        inputs.append(rng.uniform(-1, 1, (d, 3 * hidden)).astype(np.float32) if peepholes else None)
        ints = {"hidden_size": hidden, "layout": layout, "input_forget": input_forget}
        cases.append(make_case(name, "LSTM", 14, ints, {"direction": direction}, inputs))
    return cases


def gru_cases(rng):
    configurations = [
        # name, steps, batch, input, hidden, direction (GTCRN's GRU nodes, then more steps of each)
        ("gtcrn_forward_h16", 1, 1, 8, 16, "forward"),
        ("gtcrn_forward_h16_steps", 6, 1, 8, 16, "forward"),
        ("gtcrn_forward_h8_batch33", 1, 33, 8, 8, "forward"),
        ("gtcrn_forward_h8_batch33_steps", 4, 33, 8, 8, "forward"),
        ("gtcrn_bidirectional_h4", 33, 1, 8, 4, "bidirectional"),
        ("gtcrn_bidirectional_h4_batch2", 33, 2, 8, 4, "bidirectional"),
    ]
    cases = []
    for name, steps, batch, input_size, hidden, direction in configurations:
        d = 2 if direction == "bidirectional" else 1
        inputs = recurrent_inputs(rng, 3, steps, batch, input_size, hidden, d, 0, True, None, True)
        ints = {"hidden_size": hidden, "linear_before_reset": 1}
        cases.append(make_case(name, "GRU", 11, ints, {"direction": direction}, inputs))
    return cases


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen-recurrent-nodes.py OUTDIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(20261205)
    for file, cases in (("lstm.json", lstm_cases(rng)), ("gru.json", gru_cases(rng))):
        with open(os.path.join(out, file), "w") as f:
            json.dump({"onnxruntime": ort.__version__, "cases": cases}, f)
        print(f"gen-recurrent-nodes: {file}: {len(cases)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()
