#!/usr/bin/env python3
"""Compares DSP.StreamingResampler with soxr (python-soxr, VHQ) on analytic signals and prints a
Markdown table for the README. Usage: Scripts/compare-soxr.py   (from anywhere; needs Scripts/setup)

Our resampler runs through a throw-away Swift driver package built under .build-soxr/ that links
Sources/DSP only (so the rest of the package need not build). Figures per rate pair, for both:
  ripple   max |gain| in dB of sines at 2 … 90 % of the lower Nyquist frequency
  reject   worst level (dB re. input) of what reaches the output from tones between the lower
           Nyquist and the input Nyquist (downsampling), or of images of passband tones (upsampling)
  noise    SNR (dB) of 200 random-phase sines below 0.9 × lower Nyquist against their exact values
  speed    throughput in input samples per second, one-shot resample of 60 s of noise
"""
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import soxr

ROOT = Path(__file__).resolve().parent.parent
PAIRS = [(44100, 48000), (48000, 44100), (16000, 48000), (48000, 16000), (8000, 48000), (48000, 8000),
         (96000, 48000), (11025, 48000)]

DRIVER = r'''
import DSP
import Foundation

let arguments = CommandLine.arguments
let inputRate = Int(arguments[1])!, outputRate = Int(arguments[2])!
let data = try Data(contentsOf: URL(fileURLWithPath: arguments[3]))
let input = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
let clock = ContinuousClock()
var output = [Float]()
let elapsed = try clock.measure { output = try StreamingResampler.resample(input, from: inputRate, to: outputRate) }
try output.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: arguments[4])) }
print(Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds))
'''

PACKAGE = '''// swift-tools-version:6.0
import PackageDescription
let package = Package(name: "SoxrComparison", targets: [
    .systemLibrary(name: "CFFTW", pkgConfig: "fftw3f"),
    .systemLibrary(name: "CSndFile", pkgConfig: "sndfile"),
    .target(name: "DSP", dependencies: ["CFFTW", "CSndFile"],
            swiftSettings: [.unsafeFlags(["-Xcc", "-march=x86-64-v3", "-enforce-exclusivity=unchecked", "-Ounchecked"])]),
    .executableTarget(name: "resample-driver", dependencies: ["DSP"]),
])
'''


def build_driver(work):
    package = work / "package"
    (package / "Sources" / "resample-driver").mkdir(parents=True)
    for name in ["DSP", "CFFTW", "CSndFile"]:
        (package / "Sources" / name).symlink_to(ROOT / "Sources" / name)
    (package / "Package.swift").write_text(PACKAGE)
    (package / "Sources" / "resample-driver" / "main.swift").write_text(DRIVER)
    scratch = ROOT / ".build-soxr"
    subprocess.run(["swift", "build", "-c", "release", "--package-path", str(package), "--scratch-path", str(scratch)],
                   check=True, stdout=subprocess.DEVNULL)
    return scratch / "release" / "resample-driver"


def ours(driver, work, x, rate_in, rate_out):
    source, target = work / "in.f32", work / "out.f32"
    x.astype("<f4").tofile(source)
    seconds = float(subprocess.run([str(driver), str(rate_in), str(rate_out), str(source), str(target)],
                                   check=True, capture_output=True, text=True).stdout)
    return np.fromfile(target, dtype="<f4").astype(np.float64), seconds


def theirs(x, rate_in, rate_out):
    start = time.perf_counter()
    y = soxr.resample(x.astype(np.float32), rate_in, rate_out, quality="VHQ")
    return y.astype(np.float64), time.perf_counter() - start


def sine(f, rate, n):
    return 0.5 * np.sin(2 * np.pi * f * np.arange(n) / rate)


def fit(y, f, rate, margin):
    n = np.arange(margin, y.size - margin)
    basis = np.stack([np.sin(2 * np.pi * f * n / rate), np.cos(2 * np.pi * f * n / rate)], axis=1)
    coef, *_ = np.linalg.lstsq(basis, y[n], rcond=None)
    residual = y[n] - basis @ coef
    return np.hypot(*coef), np.sqrt(np.mean(residual ** 2))


def figures(resample, rate_in, rate_out):
    lower = min(rate_in, rate_out) / 2
    n = rate_in  # 1 s signals; transients at both ends are excluded by `margin` (50 ms of output)
    margin = rate_out // 20
    ripple = max(abs(20 * np.log10(fit(resample(sine(k * lower, rate_in, n))[0], k * lower, rate_out, margin)[0] / 0.5))
                 for k in [0.02, 0.25, 0.5, 0.75, 0.85, 0.9])
    tone_rms = 0.5 / np.sqrt(2)
    if rate_out < rate_in:
        top = rate_in / 2
        levels = []
        for k in [0.0, 0.1, 0.5, 0.98]:
            y = resample(sine(lower + k * (top - lower), rate_in, n))[0][margin:-margin]
            levels.append(20 * np.log10(max(np.sqrt(np.mean(y ** 2)), 1e-300) / tone_rms))
    else:
        levels = [20 * np.log10(fit(resample(sine(k * lower, rate_in, n))[0], k * lower, rate_out, margin)[1] / tone_rms)
                  for k in [0.1, 0.5, 0.9]]
    rng = np.random.default_rng(5)
    freqs, phases = rng.uniform(0, 0.9 * lower, 200), rng.uniform(0, 2 * np.pi, 200)

    def multitone(rate, count):
        t = np.arange(count)[:, None] / rate
        return (0.01 * np.sin(2 * np.pi * freqs * t + phases)).sum(axis=1)

    x = multitone(rate_in, rate_in // 2)
    y = resample(x)[0]
    expected = multitone(rate_out, y.size)
    sl = slice(margin, y.size - margin)
    snr = 10 * np.log10(np.sum(expected[sl] ** 2) / np.sum((y[sl] - expected[sl]) ** 2))
    noise = np.random.default_rng(6).uniform(-0.5, 0.5, 60 * rate_in)
    speed = noise.size / min(resample(noise)[1] for _ in range(3))
    return ripple, max(levels), snr, speed


def main():
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        driver = build_driver(work)
        print("| rate pair | ripple dB (ours / soxr VHQ) | worst leak/image dB | multitone SNR dB | speed Msamples/s |")
        print("|---|---|---|---|---|")
        for rate_in, rate_out in PAIRS:
            a = figures(lambda x: ours(driver, work, x, rate_in, rate_out), rate_in, rate_out)
            b = figures(lambda x: theirs(x, rate_in, rate_out), rate_in, rate_out)
            print(f"| {rate_in} → {rate_out} | {a[0]:.5f} / {b[0]:.5f} | {a[1]:.1f} / {b[1]:.1f} | "
                  f"{a[2]:.1f} / {b[2]:.1f} | {a[3] / 1e6:.1f} / {b[3] / 1e6:.1f} |", flush=True)
        print(f"\nsoxr {soxr.__version__} (python-soxr, quality VHQ, one-shot `soxr.resample`); ours: "
              "`StreamingResampler.resample` (delay-compensated offline path). Figures from Scripts/compare-soxr.py.")


if __name__ == "__main__":
    main()
