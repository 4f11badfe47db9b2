#!/usr/bin/env python3
"""python-soxr's one-shot resample (HQ and VHQ) of a seeded test signal, for the tests that hold
DSP.SoxrResampler (Debian's libsoxr, fed piece by piece) to the same library as python-soxr wraps.
Usage: gen-soxr.py OUT_DIR  (writes <in>-<out>-<quality>.json: input and output samples)."""
import json
import sys
from pathlib import Path

import numpy as np
import soxr

out = Path(sys.argv[1])
rng = np.random.default_rng(7)
for rate_in, rate_out in [(16000, 48000), (48000, 16000), (44100, 48000), (48000, 44100), (8000, 48000)]:
    n = rate_in // 3 + 17
    t = np.arange(n) / rate_in
    x = (0.4 * np.sin(2 * np.pi * 440 * t) + 0.1 * rng.standard_normal(n)).astype(np.float32)
    for quality in ("HQ", "VHQ"):
        y = soxr.resample(x, rate_in, rate_out, quality=quality).astype(np.float32)
        (out / f"{rate_in}-{rate_out}-{quality}.json").write_text(json.dumps(
            {"input_rate": rate_in, "output_rate": rate_out, "quality": quality,
             "input": x.tolist(), "output": y.tolist()}))
print(f"gen-soxr: {len(list(out.iterdir()))} cases", file=sys.stderr)
