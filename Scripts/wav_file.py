"""Mono WAV reading (PCM 16/24/32-bit, IEEE float 32/64) and float32 writing, with numpy only.

The writer emits a canonical float WAV (RIFF, 18-byte `fmt ` with format 3 and cbSize 0, `fact`, `data`) and nothing
time- or host-dependent, so equal samples give byte-identical files.
"""
import struct

import numpy as np

_PCM, _IEEE_FLOAT, _EXTENSIBLE = 1, 3, 0xFFFE


class WavError(ValueError):
    pass


def read_wav(path):
    """Returns (samples as 1-D float32, sample rate). PCM is scaled to [-1, 1)."""
    data = open(path, "rb").read()
    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise WavError(f"{path}: not a RIFF/WAVE file")
    fmt, payload = None, None
    offset = 12
    while offset + 8 <= len(data):
        chunk_id, size = struct.unpack_from("<4sI", data, offset)
        body = data[offset + 8:offset + 8 + size]
        if chunk_id == b"fmt ":
            if size < 16:
                raise WavError(f"{path}: fmt chunk of {size} bytes at offset {offset}")
            fmt = struct.unpack_from("<HHIIHH", body)
            if fmt[0] == _EXTENSIBLE:
                if size < 26:
                    raise WavError(f"{path}: extensible fmt chunk of {size} bytes at offset {offset}")
                fmt = (struct.unpack_from("<H", body, 24)[0],) + fmt[1:]
        elif chunk_id == b"data":
            payload = body
        offset += 8 + size + (size & 1)
    if fmt is None or payload is None:
        raise WavError(f"{path}: missing {'fmt' if fmt is None else 'data'} chunk")
    format_tag, channels, rate, _, _, bits = fmt
    if channels != 1:
        raise WavError(f"{path}: {channels} channels, expected mono")
    usable = len(payload) - len(payload) % (bits // 8 or 1)
    if format_tag == _IEEE_FLOAT and bits in (32, 64):
        samples = np.frombuffer(payload[:usable], dtype=f"<f{bits // 8}")
    elif format_tag == _PCM and bits == 16:
        samples = np.frombuffer(payload[:usable], dtype="<i2") / 32768.0
    elif format_tag == _PCM and bits == 32:
        samples = np.frombuffer(payload[:usable], dtype="<i4") / 2147483648.0
    elif format_tag == _PCM and bits == 24:
        raw = np.frombuffer(payload[:usable], dtype=np.uint8).reshape(-1, 3).astype(np.int32)
        values = raw[:, 0] | (raw[:, 1] << 8) | (raw[:, 2] << 16)
        samples = np.where(values >= 1 << 23, values - (1 << 24), values) / 8388608.0
    else:
        raise WavError(f"{path}: unsupported encoding (format {format_tag}, {bits} bits)")
    return samples.astype(np.float32), rate


def write_wav(path, samples, rate):
    """Writes mono float32 samples; refuses anything but a finite 1-D signal."""
    samples = np.asarray(samples)
    if samples.ndim != 1 or samples.dtype != np.float32:
        raise WavError(f"{path}: expected 1-D float32 samples, got {samples.dtype} {samples.shape}")
    if not np.all(np.isfinite(samples)):
        raise WavError(f"{path}: samples contain NaN or infinity")
    payload = samples.astype("<f4").tobytes()
    fmt = struct.pack("<HHIIHHH", _IEEE_FLOAT, 1, rate, rate * 4, 4, 32, 0)
    fact = struct.pack("<I", samples.size)
    body = (b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"fact" + struct.pack("<I", len(fact)) + fact
            + b"data" + struct.pack("<I", len(payload)) + payload)
    with open(path, "wb") as file:
        file.write(b"RIFF" + struct.pack("<I", len(body)) + body)
