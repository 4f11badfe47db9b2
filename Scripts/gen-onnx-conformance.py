#!/usr/bin/env python3
"""Writes the ONNX node conformance cases of the pinned `onnx` package into OUTDIR.

Layout (one folder per case, the same as onnx/backend/test/data/node):
  OUTDIR/<case>/model.onnx
  OUTDIR/<case>/test_data_set_<k>/input_<i>.pb, output_<i>.pb   (serialised TensorProto)
  OUTDIR/cases.tsv   name, rtol, atol, status ("ok" or why the case cannot be written as tensors)
"""
import os
import sys
import warnings

import numpy as np
import onnx
from onnx import numpy_helper
from onnx.backend.test.case.node import collect_testcases


def write_case(case, folder):
    os.makedirs(folder, exist_ok=True)
    onnx.save(case.model, os.path.join(folder, "model.onnx"))
    graph = case.model.graph
    for k, (inputs, outputs) in enumerate(case.data_sets):
        data_dir = os.path.join(folder, f"test_data_set_{k}")
        os.makedirs(data_dir, exist_ok=True)
        for prefix, values, infos in (("input", inputs, graph.input), ("output", outputs, graph.output)):
            for i, value in enumerate(values):
                if isinstance(value, onnx.TensorProto):
                    tensor = value
                elif isinstance(value, (np.ndarray, np.generic)):
                    tensor = numpy_helper.from_array(np.asarray(value), infos[i].name if i < len(infos) else "")
                else:
                    return f"{prefix} {i} is a {type(value).__name__}, not a tensor"
                with open(os.path.join(data_dir, f"{prefix}_{i}.pb"), "wb") as f:
                    f.write(tensor.SerializeToString())
    return "ok"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen-onnx-conformance.py OUTDIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = collect_testcases()
    rows = []
    for case in sorted(cases, key=lambda c: c.name):
        if case.kind != "node" and case.kind is not None:
            continue
        try:
            status = write_case(case, os.path.join(out, case.name))
        except Exception as error:  # a case numpy_helper cannot serialise (e.g. exotic dtypes)
            status = f"not serialisable: {type(error).__name__}: {error}".replace("\t", " ").replace("\n", " ")
        rows.append(f"{case.name}\t{case.rtol!r}\t{case.atol!r}\t{status}")
    with open(os.path.join(out, "cases.tsv"), "w") as f:
        f.write(f"# onnx {onnx.__version__}, numpy {np.__version__}\n")
        f.write("\n".join(rows) + "\n")
    print(f"gen-onnx-conformance: {len(rows)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()
