"""Writes the committed fuzz seed corpus (Fuzz/corpus/<Fuzzer>/) from the model, the generated
fixtures and sox. Run once by hand with the project venv after Scripts/setup:

    .venv/bin/python Fuzz/corpus/make-seeds.py

The DFN3 graphs are kept whole in structure (nodes, attributes, value infos, opset) but every
initializer is shrunk to at most 2 elements per axis, so each seed is a few kB and the fuzzer
mutates graph structure at tens of thousands of executions per second instead of megabytes of
weights at a few hundred.
"""
import pathlib
import shutil
import subprocess

import numpy as np
import onnx
from onnx import numpy_helper

root = pathlib.Path(__file__).resolve().parents[2]
corpus = root / "Fuzz/corpus"
generated = root / "Tests/Fixtures/generated"


def fresh(name):
    folder = corpus / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


models = fresh("ModelReaderFuzzer")
for graph in ["enc", "erb_dec", "df_dec"]:
    model = onnx.load(str(root / f"Models/DeepFilterNet3/{graph}.onnx"))
    for index, tensor in enumerate(model.graph.initializer):
        array = numpy_helper.to_array(tensor)
        small = array[tuple(slice(0, 2) for _ in array.shape)].copy()
        model.graph.initializer[index].CopyFrom(numpy_helper.from_array(small, tensor.name))
    for node in model.graph.node:
        for attribute in node.attribute:
            if attribute.type == onnx.AttributeProto.TENSOR and attribute.t.dims:
                array = numpy_helper.to_array(attribute.t)
                small = array[tuple(slice(0, 2) for _ in array.shape)].copy()
                attribute.t.CopyFrom(numpy_helper.from_array(small, attribute.t.name))
    (models / f"dfn3-{graph}-small-weights.onnx").write_bytes(model.SerializeToString())
for fixture in sorted((generated / "onnx-fixtures").glob("*.onnx")):
    shutil.copy(fixture, models / f"fixture-{fixture.name}")
shutil.copy(generated / "dfn3-ort/odd-names/model.onnx", models / "odd-names.onnx")

arrays = fresh("NumPyReaderFuzzer")
samples = {
    "f4-2x3.npy": np.arange(6, dtype="<f4").reshape(2, 3),
    "f8-scalar.npy": np.array(1.5, dtype="<f8"),
    "i4-empty.npy": np.zeros((0, 4), dtype="<i4"),
    "i8-3.npy": np.array([1, -2, 3], dtype="<i8"),
    "b1-2x2.npy": np.array([[True, False], [False, True]]),
}
for name, array in samples.items():
    np.save(arrays / name, array)
with open(arrays / "f4-v2.npy", "wb") as stream:
    np.lib.format.write_array(stream, np.ones((1, 2), dtype="<f4"), version=(2, 0))
with open(arrays / "f4-v3.npy", "wb") as stream:
    np.lib.format.write_array(stream, np.ones((2, 1), dtype="<f4"), version=(3, 0))

configs = fresh("ModelConfigFuzzer")
shutil.copy(root / "Models/DeepFilterNet3/config.ini", configs / "dfn3-config.ini")

audio = fresh("AudioFileFuzzer")
for extension, options in [
    ("pcm16.wav", ["-e", "signed-integer", "-b", "16"]),
    ("pcm24.wav", ["-e", "signed-integer", "-b", "24"]),
    ("float32.wav", ["-e", "floating-point", "-b", "32"]),
    ("ulaw.wav", ["-e", "u-law"]),
    ("pcm16.aiff", ["-e", "signed-integer", "-b", "16"]),
    ("pcm16.flac", ["-b", "16"]),
    ("pcm8.au", ["-e", "signed-integer", "-b", "8"]),
]:
    channels = "2" if extension.startswith("float") else "1"
    subprocess.run(["sox", "-n", "-r", "16000", "-c", channels, *options, str(audio / f"tone-{extension}"),
                    "synth", "0.004", "sine", "440"], check=True)
