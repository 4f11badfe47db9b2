#!/usr/bin/env python3
"""onnxruntime's outputs for the GTCRN, Silero VAD and DNSMOS graphs of Models/ (Scripts/fetch-model), the
truth our engine's runs of the same graphs are checked against.

usage: gen-model-references.py OUTDIR   (run by Scripts/generate-fixtures into .../generated/model-references)

OUTDIR/<case>/case.json, input-<name>.npy, output-<name>.npy, where <name> is the graph's input or output
name with every character outside [A-Za-z0-9._-] replaced by _ (DNSMOS's "Identity:0" → Identity_0).
case.json:
  {"model": "GTCRN/gtcrn_simple.onnx",       path under Models/
   "kind": "single" | "loop",
   "steps": N, "carry": {"conv_cache_out": "conv_cache", ...},    loops only: output → input it feeds next
   "inputs": {name: file}, "outputs": {name: file},
   "source": "random seed N (what was drawn)" | "audio: <clip> at <rate>, <which part>"}
A single case is one run of the graph on its inputs. A loop runs the graph `steps` times: an input whose
leading axis has `steps` entries and that is not carried is fed one slice per step, a carried input starts
from its file (one step's value) and then takes the output named in `carry`, every other input (Silero's
scalar sr) is fed whole at every step; each output file stacks the step outputs on a new leading axis.

Every graph has a case with seeded random inputs of plausible ranges (audio normal σ 0.1 or uniform ±0.5,
caches and states normal σ 0.5, P.808 features uniform in [-1, 1], the range (dB + 40) / 40 of dB in
[-80, 0] takes) and one with inputs made from Tests/Fixtures/generated/sample/noisy_speech.wav resampled
to 16 kHz (8 kHz for Silero's 8 kHz cases) with soxr, as the models' front ends make them (model_inputs.py):
  gtcrn-random, gtcrn-audio          frame 313 (mid-clip) with the caches onnxruntime left after frames 0–312
  gtcrn-loop                         frames 0–499 from zero caches
  silero-16k-{random,audio}          silero_vad.onnx, input [1, 576] at sr 16000; audio: chunk 156 (of 312)
                                       with the state after chunks 0–155
  silero-8k-{random,audio}           the same at sr 8000, input [1, 288]
  silero-16k-batch3-{random,audio}   input [3, 576], state [2, 3, 128]; audio: chunks 104, 156, 208, each
                                       row with the state of its own stream
  silero-loop                        chunks 0–299 at 16 kHz from a zero state
  silero-op15-16k-{random,audio}     silero_vad_16k_op15.onnx at 16 kHz
  silero-op18-{16k,8k}-{random,audio}, silero-op18-loop   silero_vad_op18_ifless.onnx, likewise
  dnsmos-p835-{random,audio}         sig_bak_ovr.onnx on [1, 144160]: the first 9.01 s window
  dnsmos-p808-{random,audio}         model_v8.onnx on [1, 900, 120] log-mel features of that window
onnxruntime runs on one intra-op thread with its default graph optimisations.
"""
import json
import re
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from model_inputs import (CLIP_NAME, MODELS, SILERO_CHUNK, SILERO_CONTEXT, ModelInputError, clip,  # noqa: E402
                          dnsmos_window, gtcrn_frames, p808_features, session, silero_chunks)

GTCRN = "GTCRN/gtcrn_simple.onnx"
GTCRN_CARRY = {"conv_cache_out": "conv_cache", "tra_cache_out": "tra_cache", "inter_cache_out": "inter_cache"}
GTCRN_LOOP_STEPS = 500
SILERO_CARRY = {"stateN": "state"}
SILERO_LOOP_STEPS = 300
MID_CHUNK, BATCH_CHUNKS = 156, (104, 156, 208)


def file_name(kind, name):
    return f"{kind}-{re.sub(r'[^A-Za-z0-9._-]', '_', name)}.npy"


class Writer:
    """Writes cases into one folder; hands out the random seeds 1, 2, … in the order cases ask for them."""

    def __init__(self, out):
        self.out = Path(out)
        self.sessions = {}
        self.seeds = 0

    def session(self, model):
        if model not in self.sessions:
            self.sessions[model] = session(MODELS / model)
        return self.sessions[model]

    def rng(self):
        self.seeds += 1
        return np.random.default_rng(self.seeds), f"random seed {self.seeds}"

    def run(self, model, inputs):
        graph = self.session(model)
        names = [o.name for o in graph.get_outputs()]
        return dict(zip(names, graph.run(names, inputs)))

    def write(self, name, model, inputs, outputs, source, **loop):
        folder = self.out / name
        folder.mkdir(parents=True)
        for kind, arrays in (("input", inputs), ("output", outputs)):
            for key, value in arrays.items():
                if not np.all(np.isfinite(value)):
                    raise ModelInputError(f"{name}: {kind} {key} is not finite")
                np.save(folder / file_name(kind, key), value)
        case = {"model": model, "kind": "loop" if loop else "single", **loop,
                "inputs": {key: file_name("input", key) for key in inputs},
                "outputs": {key: file_name("output", key) for key in outputs}, "source": source}
        (folder / "case.json").write_text(json.dumps(case, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")

    def single(self, name, model, inputs, source):
        self.write(name, model, inputs, self.run(model, inputs), source)

    def loop(self, name, model, inputs, carry, steps, source):
        """Runs `steps` steps by the case.json rule and writes the case with the stacked outputs."""
        carried = {value: inputs[value] for value in carry.values()}
        stepped = [key for key, value in inputs.items()
                   if key not in carried and value.ndim > 0 and value.shape[0] == steps]
        results = []
        for step in range(steps):
            feed = {key: value[step] if key in stepped else value for key, value in inputs.items()}
            feed.update(carried)
            outputs = self.run(model, feed)
            carried = {carry[key]: value for key, value in outputs.items() if key in carry}
            results.append(outputs)
        stacked = {key: np.stack([r[key] for r in results]) for key in results[0]}
        self.write(name, model, inputs, stacked, source, steps=steps, carry=carry)
        return results


def gtcrn_cases(writer, signal):
    graph = writer.session(GTCRN)
    shapes = {i.name: i.shape for i in graph.get_inputs()}
    rng, source = writer.rng()
    inputs = {"mix": gtcrn_frames((rng.standard_normal(2560) * 0.1).astype(np.float32))[5]}
    inputs.update({key: (rng.standard_normal(shapes[key]) * 0.5).astype(np.float32) for key in GTCRN_CARRY.values()})
    writer.single("gtcrn-random", GTCRN, inputs,
                  source + " (mix: the STFT frame of normal σ 0.1 noise, caches normal σ 0.5)")

    frames = gtcrn_frames(signal)
    zeros = {key: np.zeros(shapes[key], np.float32) for key in GTCRN_CARRY.values()}
    steps = writer.loop("gtcrn-loop", GTCRN, {"mix": frames[:GTCRN_LOOP_STEPS], **zeros}, GTCRN_CARRY,
                        GTCRN_LOOP_STEPS, f"audio: {CLIP_NAME} at 16 kHz, STFT frames 0–{GTCRN_LOOP_STEPS - 1}")
    middle = frames.shape[0] // 2
    caches = {GTCRN_CARRY[key]: value for key, value in steps[middle - 1].items() if key in GTCRN_CARRY}
    writer.single("gtcrn-audio", GTCRN, {"mix": frames[middle], **caches},
                  f"audio: {CLIP_NAME} at 16 kHz, STFT frame {middle} with the caches after frames 0–{middle - 1}")


def silero_stream(writer, model, chunks, rate):
    """The state before each chunk of one stream run from a zero state: [T, 2, 1, 128]."""
    state = np.zeros((2, 1, 128), np.float32)
    states = []
    for chunk in chunks:
        states.append(state)
        state = writer.run(model, {"input": chunk, "state": state, "sr": np.array(rate, np.int64)})["stateN"]
    return np.stack(states)


def silero_pair(writer, name, model, signal, rate, batch=1):
    rng, source = writer.rng()
    width = SILERO_CONTEXT[rate] + SILERO_CHUNK[rate]
    sr = np.array(rate, np.int64)
    writer.single(f"{name}-random", model, {
        "input": rng.uniform(-0.5, 0.5, (batch, width)).astype(np.float32),
        "state": (rng.standard_normal((2, batch, 128)) * 0.5).astype(np.float32), "sr": sr},
        source + " (input uniform ±0.5, state normal σ 0.5)")
    chunks = silero_chunks(signal, rate)
    states = silero_stream(writer, model, chunks, rate)
    picks = BATCH_CHUNKS if batch == 3 else (MID_CHUNK,)
    inputs = {"input": np.concatenate([chunks[i] for i in picks]),
              "state": np.concatenate([states[i] for i in picks], axis=1), "sr": sr}
    listed = ", ".join(map(str, picks))
    writer.single(f"{name}-audio", model, inputs,
                  f"audio: {CLIP_NAME} at {rate // 1000} kHz, chunk{'s' if batch > 1 else ''} {listed} of "
                  f"{chunks.shape[0]}, each with the state its stream had after the chunks before it")
    return chunks


def silero_cases(writer, signal16, signal8):
    plain, op15, op18 = "SileroVAD/silero_vad.onnx", "SileroVAD/silero_vad_16k_op15.onnx", \
        "SileroVAD/silero_vad_op18_ifless.onnx"
    chunks = silero_pair(writer, "silero-16k", plain, signal16, 16000)
    silero_pair(writer, "silero-8k", plain, signal8, 8000)
    silero_pair(writer, "silero-16k-batch3", plain, signal16, 16000, batch=3)
    silero_pair(writer, "silero-op15-16k", op15, signal16, 16000)
    silero_pair(writer, "silero-op18-16k", op18, signal16, 16000)
    silero_pair(writer, "silero-op18-8k", op18, signal8, 8000)
    for name, model in (("silero-loop", plain), ("silero-op18-loop", op18)):
        inputs = {"input": chunks[:SILERO_LOOP_STEPS], "state": np.zeros((2, 1, 128), np.float32),
                  "sr": np.array(16000, np.int64)}
        writer.loop(name, model, inputs, SILERO_CARRY, SILERO_LOOP_STEPS,
                    f"audio: {CLIP_NAME} at 16 kHz, chunks 0–{SILERO_LOOP_STEPS - 1} (512 samples behind 64 of context)")


def dnsmos_cases(writer, signal):
    p835, p808 = "DNSMOS/sig_bak_ovr.onnx", "DNSMOS/model_v8.onnx"
    window = dnsmos_window(signal)
    rng, source = writer.rng()
    writer.single("dnsmos-p835-random", p835, {"input_1": (rng.standard_normal(window.shape) * 0.1).astype(np.float32)},
                  source + " (normal σ 0.1)")
    writer.single("dnsmos-p835-audio", p835, {"input_1": window},
                  f"audio: {CLIP_NAME} at 16 kHz, samples 0–{window.shape[1] - 1} (the first 9.01 s window)")
    features = p808_features(window)
    rng, source = writer.rng()
    writer.single("dnsmos-p808-random", p808, {"input_1": rng.uniform(-1, 1, features.shape).astype(np.float32)},
                  source + " (uniform in [-1, 1])")
    writer.single("dnsmos-p808-audio", p808, {"input_1": features},
                  f"audio: {CLIP_NAME} at 16 kHz, log-mel features of samples 0–{window.shape[1] - 161}")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen-model-references.py OUTDIR")
    try:
        writer = Writer(sys.argv[1])
        signal16, signal8 = clip(16000), clip(8000)
        gtcrn_cases(writer, signal16)
        silero_cases(writer, signal16, signal8)
        dnsmos_cases(writer, signal16)
    except ModelInputError as error:
        sys.exit(f"gen-model-references: error: {error}")


if __name__ == "__main__":
    main()
