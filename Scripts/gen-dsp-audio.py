#!/usr/bin/env python3
"""Audio files for Tests/DSPTests written without libsndfile: WAV files assembled byte by byte here
(PCM 16/24/32-bit, IEEE float 32/64-bit) and FLAC encoded by sox from raw PCM, each with the samples
a reader must return. Usage: gen-dsp-audio.py OUTDIR

Expected samples are interleaved little-endian float32 (`NAME.f32`): integer codes divided by
2^(bits-1), which is how libsndfile normalises integer formats to float.
"""
import json
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np

RATE, CHANNELS, FRAMES = 44100, 2, 4801


def wav_bytes(codes, bits, format_tag, rate=RATE, channels=CHANNELS):
    """A canonical RIFF/WAVE file: fmt chunk (16 bytes) + data chunk."""
    if format_tag == 1:
        data = b"".join(int(c).to_bytes(bits // 8, "little", signed=True) for c in codes.ravel())
    else:
        data = codes.astype("<f4" if bits == 32 else "<f8").tobytes()
    block = channels * bits // 8
    fmt = struct.pack("<HHIIHH", format_tag, channels, rate, rate * block, block, bits)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(data)) + data
    if len(data) % 2:
        body += b"\0"
    return b"RIFF" + struct.pack("<I", len(body)) + body


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(4242)
    t = np.arange(FRAMES) / RATE
    left = 0.5 * np.sin(2 * np.pi * 440 * t)
    right = np.clip(0.3 * rng.standard_normal(FRAMES), -0.99, 0.99)
    right[:3] = [-1.0, 0.999, 0.0]  # full-scale negative code and near-full-scale positive
    signal = np.stack([left, right], axis=1)  # [frames, channels], float64

    files = {}
    for name, bits in [("pcm16", 16), ("pcm24", 24), ("pcm32", 32)]:
        scale = 2 ** (bits - 1)
        codes = np.clip(np.round(signal * scale), -scale, scale - 1).astype(np.int64)
        (out / f"{name}.wav").write_bytes(wav_bytes(codes, bits, 1))
        (codes / scale).astype("<f4").tofile(out / f"{name}.f32")
        files[name] = {"file": f"{name}.wav", "expected": f"{name}.f32"}
    for name, bits in [("float32", 32), ("float64", 64)]:
        (out / f"{name}.wav").write_bytes(wav_bytes(signal, bits, 3))
        signal.astype("<f4").tofile(out / f"{name}.f32")
        files[name] = {"file": f"{name}.wav", "expected": f"{name}.f32"}

    for name, bits in [("flac16", 16), ("flac24", 24)]:
        scale = 2 ** (bits - 1)
        codes = np.clip(np.round(signal * scale), -scale, scale - 1).astype(np.int64)
        raw = out / f"{name}.raw"
        raw.write_bytes(b"".join(int(c).to_bytes(bits // 8, "little", signed=True) for c in codes.ravel()))
        subprocess.run(["sox", "-t", "raw", "-e", "signed-integer", "-b", str(bits), "-L", "-r", str(RATE),
                        "-c", str(CHANNELS), str(raw), f"{out}/{name}.flac"], check=True)
        raw.unlink()
        (codes / scale).astype("<f4").tofile(out / f"{name}.f32")
        files[name] = {"file": f"{name}.flac", "expected": f"{name}.f32"}

    # A well-formed WAV whose data chunk is empty, and one claiming a 10 MHz sample rate.
    (out / "zero-frames.wav").write_bytes(wav_bytes(np.zeros((0, CHANNELS), dtype=np.int64), 16, 1))
    (out / "absurd-rate.wav").write_bytes(wav_bytes(np.zeros((10, 1), dtype=np.int64), 16, 1,
                                                    rate=10_000_000, channels=1))
    manifest = {"sampleRate": RATE, "channels": CHANNELS, "frames": FRAMES, "files": files,
                "versions": {"numpy": np.__version__,
                             "sox": subprocess.run(["sox", "--version"], capture_output=True, text=True).stdout.strip()}}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1))


if __name__ == "__main__":
    main()
