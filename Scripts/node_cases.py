"""Writes node test cases in the layout of the ONNX conformance suite (a folder per case with
model.onnx and test_data_set_0/input_N.pb, output_N.pb) plus cases.txt listing them, so that our
generated cases run through the same runner as the suite's own."""

import os
import sys

import onnx
from onnx import numpy_helper


def write_node_cases(out, cases, script):
    """cases: (name, model, inputs, outputs) tuples; script: the generator's name for its summary line."""
    os.makedirs(out, exist_ok=True)
    rows = []
    for name, model, inputs, outputs in cases:
        folder = os.path.join(out, name)
        data = os.path.join(folder, "test_data_set_0")
        os.makedirs(data, exist_ok=True)
        onnx.save(model, os.path.join(folder, "model.onnx"))
        for kind, arrays in (("input", inputs), ("output", outputs)):
            for index, array in enumerate(arrays):
                with open(os.path.join(data, f"{kind}_{index}.pb"), "wb") as f:
                    f.write(numpy_helper.from_array(array).SerializeToString())
        rows.append(name)
    with open(os.path.join(out, "cases.txt"), "w") as f:
        f.write("\n".join(rows) + "\n")
    print(f"{script}: {len(rows)} cases", file=sys.stderr)
