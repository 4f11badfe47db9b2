#!/usr/bin/env python3
"""A small test corpus (16-bit WAVs) for the corpus-run tests (Tests/CLITests/CorpusTests.swift): 44 files, 1–1.5 s each,
at 8, 16, 44.1 and 48 kHz, mono and stereo, noisy espeak-ng speech (noisy_speech.py) with its clean
reference, three of them corrupt (random bytes, a truncated header, an empty file), plus manifest.jsonl
listing every file with its clean reference and, for some, GTCRN or DFN3 settings.
Usage: gen-corpus.py OUT_DIR."""
import json
import sys
from pathlib import Path

import numpy as np
import soxr

import wave

import noisy_speech


def write_wav(path, samples, rate):
    """16-bit PCM, mono ([n]) or interleaved ([n, channels])."""
    frames = samples.reshape(samples.shape[0], -1)
    with wave.open(str(path), "wb") as file:
        file.setnchannels(frames.shape[1])
        file.setsampwidth(2)
        file.setframerate(rate)
        file.writeframes((np.clip(frames, -1, 1) * 32767).round().astype("<i2").tobytes())

out = Path(sys.argv[1])
(out / "noisy" / "group-a").mkdir(parents=True)
(out / "noisy" / "group-b").mkdir(parents=True)
(out / "clean").mkdir()
rng = np.random.default_rng(20261201)
speech = np.concatenate([noisy_speech.speak(" ".join(noisy_speech.HARVARD[i:i + 3])) for i in (0, 3, 6)])
rates = [8000, 16000, 44100, 48000]
lines = []
for index in range(41):
    rate = rates[index % len(rates)]
    channels = 2 if index % 5 == 2 else 1
    length = int(rng.uniform(1.0, 1.5) * noisy_speech.SAMPLE_RATE)
    start = int(rng.integers(0, speech.size - length))
    clean48 = speech[start:start + length]
    noisy48 = noisy_speech.mix(clean48, noisy_speech.noise("white" if index % 2 else "pink", length, 100 + index), rng.uniform(0, 15))
    scale = np.sqrt(10 ** (noisy_speech.SPEECH_LEVEL_DBFS / 10) / noisy_speech.active_power(clean48))
    clean = soxr.resample((clean48 * scale).astype(np.float32), 48000, rate, quality="VHQ").astype(np.float32)
    noisy = soxr.resample(noisy48, 48000, rate, quality="VHQ").astype(np.float32)
    if channels == 2:
        noisy = np.stack([noisy, noisy[::-1].copy()], axis=1)
        clean = np.stack([clean, clean[::-1].copy()], axis=1)
    group = "group-a" if index % 3 else "group-b"
    name = f"clip{index:02d}-{rate}-{channels}ch.wav"
    write_wav(out / "noisy" / group / name, noisy, rate)
    write_wav(out / "clean" / name, clean, rate)
    entry = {"id": f"{group}/{name[:-4]}", "audio": f"noisy/{group}/{name}", "reference": f"clean/{name}"}
    if index % 7 == 3:
        entry["model"] = "gtcrn"
    elif index % 7 == 5:
        entry["settings"] = {"atten_lim_db": 12, "pf_beta": 0.02}
    entry["speaker"] = f"s{index % 4}"
    lines.append(entry)
corrupt = {"corrupt-random.wav": rng.integers(0, 256, 4000, dtype=np.uint8).tobytes(),
           "corrupt-truncated.wav": (out / "noisy" / "group-a" / "clip01-16000-1ch.wav").read_bytes()[:30],
           "corrupt-empty.wav": b""}
for name, data in corrupt.items():
    (out / "noisy" / "group-b" / name).write_bytes(data)
    lines.append({"id": f"group-b/{name[:-4]}", "audio": f"noisy/group-b/{name}"})
(out / "manifest.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
print(f"gen-corpus: {len(lines)} files", file=sys.stderr)
