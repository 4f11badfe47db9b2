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
import tempfile

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


def shrunk(path):
    """The model at `path` with every initializer and tensor attribute cut to ≤ 2 per axis."""
    model = onnx.load(str(path))
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
    return model.SerializeToString()


models = fresh("ModelReaderFuzzer")
for graph in ["enc", "erb_dec", "df_dec"]:
    (models / f"dfn3-{graph}-small-weights.onnx").write_bytes(shrunk(root / f"Models/DeepFilterNet3/{graph}.onnx"))
(models / "gtcrn-small-weights.onnx").write_bytes(shrunk(root / "Models/GTCRN/gtcrn_simple.onnx"))
# Control flow and recurrent nodes, which the IR gained after the first campaign: If with its
# branches, LSTM and GRU with each of their attribute sets (the ONNX backend test models).
for case in sorted((generated / "onnx-conformance").iterdir()):
    if case.name.startswith(("test_if", "test_lstm_", "test_gru_", "test_rnn_")) and (case / "model.onnx").exists():
        shutil.copy(case / "model.onnx", models / f"conformance-{case.name[len('test_'):]}.onnx")
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

# A model folder as ModelFolderFuzzer reads it: its files' contents joined by the separator, in the
# order config.ini, enc.onnx, erb_dec.onnx, df_dec.onnx, card.json, gtcrn_simple.onnx (empty: absent).
separator = b"\n--dfkit-file--\n"
folders = fresh("ModelFolderFuzzer")
dfn3 = [(root / "Models/DeepFilterNet3/config.ini").read_bytes()] + [
    (models / f"dfn3-{graph}-small-weights.onnx").read_bytes() for graph in ["enc", "erb_dec", "df_dec"]]
(folders / "dfn3-small-weights").write_bytes(separator.join(dfn3))
(folders / "dfn3-config-only").write_bytes(dfn3[0])
(folders / "gtcrn-card-small-weights").write_bytes(separator.join(
    [b"", b"", b"", b"", (root / "Models/GTCRN/card.json").read_bytes(), (models / "gtcrn-small-weights.onnx").read_bytes()]))

# Model cards: every card the repository ships.
cards = fresh("ModelCardFuzzer")
for card in sorted((root / "Models").glob("*/card.json")):
    shutil.copy(card, cards / f"{card.parent.name}.json")

# Manifests: the test corpus's, and one of every key and setting README documents.
manifests = fresh("ManifestFuzzer")
shutil.copy(generated / "corpus/manifest.jsonl", manifests / "test-corpus.jsonl")
(manifests / "readme.jsonl").write_text(
    '{"id": "p232/001", "audio": "noisy/p232_001.wav", "reference": "clean/p232_001.wav"}\n'
    '{"id": "p232/002", "audio": "noisy/p232_002.wav", "model": "gtcrn"}\n'
    '{"id": "p232/003", "audio": "noisy/p232_003.wav", "settings": {"atten_lim_db": 12, "pf_beta": 0.02}}\n'
    '{"id": "p232/004", "audio": "/abs/p232_004.wav", "model": "../models/DeepFilterNet3", "settings": {"thresholds": "upstream"}, "speaker": "p232"}\n'
    "\n")

# Results logs: what `dfkit enhance --manifest` wrote for part of the test corpus (ok records
# with metrics, the corrupt files' error records), with a line cut short as a killed run leaves it.
logs = fresh("ResultsLogFuzzer")
with tempfile.TemporaryDirectory() as scratch:
    manifest = pathlib.Path(scratch) / "manifest.jsonl"
    lines = (generated / "corpus/manifest.jsonl").read_text().splitlines()
    chosen = [line for line in lines if "corrupt" in line][:2] + [line for line in lines if "corrupt" not in line][:3]
    manifest.write_text("".join(line.replace('": "noisy/', f'": "{generated}/corpus/noisy/')
                                .replace('": "clean/', f'": "{generated}/corpus/clean/') + "\n" for line in chosen))
    subprocess.run([str(root / ".build/release/dfkit"), "enhance", "--manifest", str(manifest), "--output-dir", f"{scratch}/out",
                    "--model", "gtcrn", "--metrics", "si-sdr,snr"], check=False, capture_output=True)
    log = (pathlib.Path(scratch) / "out/results.jsonl").read_text().replace(scratch, "/corpus").replace(str(generated), "/corpus")
(logs / "corpus-results.jsonl").write_text(log)
(logs / "killed-mid-line.jsonl").write_text(log + log.splitlines()[0][:40])
