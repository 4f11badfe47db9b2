#!/usr/bin/env python3
"""Runs the three DFN3 graphs in onnxruntime and writes their inputs and outputs as .npy fixtures.

OUTDIR/<case>/<graph>/inputs/<name>.npy and OUTDIR/<case>/<graph>/outputs/<name>.npy, where <case> is
  random-S<S>    independent standard-normal inputs for each graph (ReLU-fed inputs made non-negative)
  features-S<S>  DFN3 features (dfn3-pipeline.md §2–3) of a deterministic noisy harmonic sweep, fed
                 to enc; erb_dec and df_dec get enc's outputs (the chain the runtime runs)
for S = 1, 7 and 400. Output names are written with characters outside [A-Za-z0-9._-] replaced by _.
OUTDIR/npy/<dtype>-v<major>.npy are numpy-written arrays (arange(24) as [2,3,4]; bool: multiples of 3)
in every dtype and format version `dfkit run` reads, for tests of the .npy reader and writer.
OUTDIR/odd-names/model.onnx is a one-node model (Identity then Add) whose input and output names need
that replacement, with its input, for tests of `dfkit run`'s file naming.
"""
import os
import re
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

FS, N, R, K = 48000, 960, 480, 481
NB_ERB, NB_DF, ALPHA = 32, 96, np.float32(0.99)
ERB_WIDTHS = [2] * 13 + [5, 5, 7, 7, 8, 10, 12, 13, 15, 18, 20, 24, 28, 31, 37, 42, 50, 56, 67]
FRAME_COUNTS = (1, 7, 400)


def noisy_sweep(frames):
    """A harmonic tone sweeping 120→400 Hz (5 partials) plus white noise at about 5 dB SNR."""
    rng = np.random.default_rng(20261130)
    t = np.arange(frames * R) / FS
    f0 = 120 + 280 * t / t[-1]
    phase = 2 * np.pi * np.cumsum(f0) / FS
    tone = sum(np.sin(h * phase) / h for h in range(1, 6)) * 0.2
    noise = rng.standard_normal(t.size) * 0.05
    return (tone + noise).astype(np.float32)


def features(signal):
    """ERB and complex features, float32 throughout, following dfn3-pipeline.md §2.1–2.3, §3.3, §3.4."""
    n = np.arange(N, dtype=np.float64)
    window = np.sin(0.5 * np.pi * np.sin(np.pi * (n + 0.5) / N) ** 2).astype(np.float32)
    frames = signal.size // R
    memory = np.zeros(R, np.float32)
    mean_state = (np.float32(-60) + np.arange(NB_ERB, dtype=np.float32) * (np.float32(-30) / np.float32(31))).astype(np.float32)
    unit_state = (np.float32(0.001) + np.arange(NB_DF, dtype=np.float32) * (np.float32(-0.0009) / np.float32(95))).astype(np.float32)
    one_minus_alpha = np.float32(1) - ALPHA
    feat_erb = np.zeros((1, 1, frames, NB_ERB), np.float32)
    feat_spec = np.zeros((1, 2, frames, NB_DF), np.float32)
    for t in range(frames):
        hop = signal[t * R:(t + 1) * R]
        frame = np.concatenate([memory, hop]) * window
        memory = hop.copy()
        spectrum = (np.fft.rfft(frame.astype(np.float64)) * (1.0 / N)).astype(np.complex64)
        power = (spectrum.real.astype(np.float32) ** 2 + spectrum.imag.astype(np.float32) ** 2).astype(np.float32)
        start = 0
        for b, width in enumerate(ERB_WIDTHS):
            band = np.float32(0)
            inverse = np.float32(1) / np.float32(width)
            for p in power[start:start + width]:
                band = np.float32(band + p * inverse)
            start += width
            db = np.float32(10) * np.log10(band + np.float32(1e-10), dtype=np.float32)
            mean_state[b] = db * one_minus_alpha + mean_state[b] * ALPHA
            feat_erb[0, 0, t, b] = (db - mean_state[b]) / np.float32(40)
        low = spectrum[:NB_DF]
        magnitude = np.hypot(low.real, low.imag).astype(np.float32)
        unit_state = (magnitude * one_minus_alpha + unit_state * ALPHA).astype(np.float32)
        scale = np.sqrt(unit_state).astype(np.float32)
        feat_spec[0, 0, t] = low.real / scale
        feat_spec[0, 1, t] = low.imag / scale
    return feat_erb, feat_spec


def file_name(name):
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)


def run(session, inputs, folder):
    outputs = session.run(None, inputs)
    for kind, values in (("inputs", inputs.items()),
                         ("outputs", zip([o.name for o in session.get_outputs()], outputs))):
        os.makedirs(os.path.join(folder, kind), exist_ok=True)
        for name, value in values:
            np.save(os.path.join(folder, kind, file_name(name) + ".npy"), np.ascontiguousarray(value))
    return dict(zip([o.name for o in session.get_outputs()], outputs))


def random_inputs(session, frames, rng):
    inputs = {}
    for info in session.get_inputs():
        shape = [frames if isinstance(d, str) else d for d in info.shape]
        value = rng.standard_normal(shape).astype(np.float32)
        # Every DFN3 input except the features is a ReLU output; keep random ones in that domain.
        inputs[info.name] = value if info.name.startswith("feat_") else np.abs(value)
    return inputs


def odd_names_model(folder):
    os.makedirs(folder, exist_ok=True)
    nodes = [helper.make_node("Identity", ["x:0"], ["copy/of x"]),
             helper.make_node("Add", ["x:0", "x:0"], ["twice x (sum)"])]
    graph = helper.make_graph(
        nodes, "odd_names", [helper.make_tensor_value_info("x:0", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("copy/of x", TensorProto.FLOAT, [2, 3]),
         helper.make_tensor_value_info("twice x (sum)", TensorProto.FLOAT, [2, 3])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(folder, "model.onnx"))
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    run(ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]), {"x:0": x}, folder)


def numpy_files(folder):
    os.makedirs(folder, exist_ok=True)
    values = np.arange(24).reshape(2, 3, 4)
    for dtype in ("float32", "float64", "int32", "int64", "bool"):
        array = (values % 3 == 0) if dtype == "bool" else values.astype(dtype)
        for version in ((1, 0), (2, 0), (3, 0)):
            with open(os.path.join(folder, f"{dtype}-v{version[0]}.npy"), "wb") as f:
                np.lib.format.write_array(f, array, version=version)
    np.save(os.path.join(folder, "float32-scalar.npy"), np.float32(2.5))
    np.save(os.path.join(folder, "float32-vector.npy"), np.arange(5, dtype=np.float32))
    np.save(os.path.join(folder, "float32-fortran.npy"), np.asfortranarray(values.astype(np.float32)))
    np.save(os.path.join(folder, "float32-bigendian.npy"), values.astype(">f4"))
    np.save(os.path.join(folder, "uint8.npy"), values.astype(np.uint8))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen-dfn3-ort.py OUTDIR")
    out = sys.argv[1]
    model_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Models", "DeepFilterNet3")
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    options.intra_op_num_threads = 1
    sessions = {g: ort.InferenceSession(os.path.join(model_dir, g + ".onnx"), options,
                                        providers=["CPUExecutionProvider"])
                for g in ("enc", "erb_dec", "df_dec")}
    rng = np.random.default_rng(3)
    feat_erb, feat_spec = features(noisy_sweep(max(FRAME_COUNTS)))
    for frames in FRAME_COUNTS:
        case = os.path.join(out, f"random-S{frames}")
        for graph, session in sessions.items():
            run(session, random_inputs(session, frames, rng), os.path.join(case, graph))
        case = os.path.join(out, f"features-S{frames}")
        enc = run(sessions["enc"], {"feat_erb": np.ascontiguousarray(feat_erb[:, :, :frames]),
                                    "feat_spec": np.ascontiguousarray(feat_spec[:, :, :frames])},
                  os.path.join(case, "enc"))
        run(sessions["erb_dec"], {k: enc[k] for k in ("emb", "e3", "e2", "e1", "e0")},
            os.path.join(case, "erb_dec"))
        run(sessions["df_dec"], {k: enc[k] for k in ("emb", "c0")}, os.path.join(case, "df_dec"))
    odd_names_model(os.path.join(out, "odd-names"))
    numpy_files(os.path.join(out, "npy"))
    with open(os.path.join(out, "VERSIONS"), "w") as f:
        f.write(f"onnxruntime {ort.__version__}\nnumpy {np.__version__}\n")


if __name__ == "__main__":
    main()
