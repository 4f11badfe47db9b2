"""Deterministic noisy-speech clips at 48 kHz: espeak-ng speech plus white, pink or babble noise at a set SNR.

Speech comes from `espeak-ng` (Debian package; its output is deterministic for a given version) and is
resampled 22050 → 48000 Hz with soxr. Noise comes from numpy's PCG64 generator with explicit seeds.
The SNR is the ratio of the speech's *active* power (mean square over the 10 ms frames within 40 dB of
the loudest frame, a simple stand-in for ITU-T P.56) to the noise's mean square over the whole clip.
Texts are Harvard sentences (IEEE Recommended Practice for Speech Quality Measurements, 1969).
"""
import os
import subprocess
import tempfile

import numpy as np
import soxr

from wav_file import read_wav

SAMPLE_RATE = 48000
SPEECH_LEVEL_DBFS = -26.0
"""Active speech level of every mixture (the usual P.56 presentation level)."""
ACTIVE_FRAME = 480
ACTIVE_RANGE_DB = 40.0

HARVARD = [
    "The birch canoe slid on the smooth planks.",
    "Glue the sheet to the dark blue background.",
    "It's easy to tell the depth of a well.",
    "These days a chicken leg is a rare dish.",
    "Rice is often served in round bowls.",
    "The juice of lemons makes fine punch.",
    "The box was thrown beside the parked truck.",
    "The hogs were fed chopped corn and garbage.",
    "Four hours of steady work faced us.",
    "A large size in stockings is hard to sell.",
    "The boy was there when the sun rose.",
    "A rod is used to catch pink salmon.",
    "The source of the huge river is the clear spring.",
    "Kick the ball straight and follow through.",
    "Help the woman get back to her feet.",
    "A pot of tea helps to pass the evening.",
]

BABBLE_TALKERS = [
    ("en-us+f2", 150, 60), ("en-gb+m3", 170, 40), ("en-gb-scotland+f4", 160, 70),
    ("en-029+m2", 145, 35), ("en-us+m4", 175, 50), ("en-gb-x-rp+f3", 155, 65),
]


class SynthesisError(RuntimeError):
    pass


def espeak_version():
    """The Debian package version of espeak-ng (e.g. 1.51+dfsg-10+deb12u2), which fixes its output."""
    result = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "espeak-ng"], capture_output=True, text=True)
    if result.returncode != 0 or not result.stdout:
        raise SynthesisError("espeak-ng is not installed (Scripts/setup installs it)")
    return result.stdout


def speak(text, voice="en-us", words_per_minute=160, pitch=50):
    """espeak-ng speech of `text` as float32 at 48 kHz."""
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "speech.wav")
        command = ["espeak-ng", "-v", voice, "-s", str(words_per_minute), "-p", str(pitch), "-w", path, text]
        try:
            result = subprocess.run(command, capture_output=True, text=True)
        except FileNotFoundError:
            raise SynthesisError("espeak-ng not found (Scripts/setup installs it)") from None
        if result.returncode != 0:
            raise SynthesisError(f"{' '.join(command)} failed: {result.stderr.strip()}")
        samples, rate = read_wav(path)
    return soxr.resample(samples, rate, SAMPLE_RATE, quality="HQ").astype(np.float32)


def fit(signal, count):
    """`signal` cut or zero-padded to `count` samples."""
    out = np.zeros(count, np.float32)
    out[:min(count, signal.size)] = signal[:count]
    return out


def active_power(signal):
    frames = signal[:signal.size // ACTIVE_FRAME * ACTIVE_FRAME].astype(np.float64).reshape(-1, ACTIVE_FRAME)
    energies = np.mean(frames ** 2, axis=1)
    active = energies >= energies.max() * 10 ** (-ACTIVE_RANGE_DB / 10)
    return float(np.mean(energies[active]))


def white_noise(count, seed):
    return np.random.default_rng(seed).standard_normal(count)


def pink_noise(count, seed, rows=12):
    """Voss–McCartney pink noise: the sum of `rows` white sequences, row k held for 2^k samples with a
    random phase, which gives a 1/f power spectrum over about `rows` octaves (down to ~20 Hz), mean removed."""
    rng = np.random.default_rng(seed)
    total = rng.standard_normal(count)
    index = np.arange(count)
    for k in range(1, rows):
        span = 1 << k
        offset = int(rng.integers(span))
        values = rng.standard_normal((count + offset) // span + 1)
        total += values[(index + offset) // span]
    return total - total.mean()


def babble_noise(count, seed):
    """Six espeak-ng talkers with different voices and sentences, each looped, circularly shifted by a
    random amount and normalised to equal active power, summed."""
    rng = np.random.default_rng(seed)
    total = np.zeros(count)
    for talker, (voice, words_per_minute, pitch) in enumerate(BABBLE_TALKERS):
        text = " ".join(HARVARD[(2 * talker + i) % len(HARVARD)] for i in range(3))
        speech = speak(text, voice, words_per_minute, pitch).astype(np.float64)
        looped = np.resize(speech, count + speech.size)
        shift = int(rng.integers(speech.size))
        total += looped[shift:shift + count] / np.sqrt(active_power(speech))
    return total


def noise(kind, count, seed):
    generators = {"white": white_noise, "pink": pink_noise, "babble": babble_noise}
    if kind not in generators:
        raise SynthesisError(f"unknown noise kind {kind!r} (one of {', '.join(generators)})")
    return generators[kind](count, seed)


def mix(speech, noise_signal, snr_db):
    """Speech scaled to SPEECH_LEVEL_DBFS active level plus noise scaled to `snr_db` below it, as float32."""
    speech = speech.astype(np.float64)
    noise_signal = noise_signal.astype(np.float64)
    speech_power = 10 ** (SPEECH_LEVEL_DBFS / 10)
    speech = speech * np.sqrt(speech_power / active_power(speech))
    noise_signal = noise_signal * np.sqrt(speech_power * 10 ** (-snr_db / 10) / np.mean(noise_signal ** 2))
    noisy = speech + noise_signal
    peak = np.abs(noisy).max()
    if peak > 0.9:
        raise SynthesisError(f"mixture peaks at {peak:.3f}; lower SPEECH_LEVEL_DBFS")
    return noisy.astype(np.float32)


def noisy_speech(sentences, voice, kind, snr_db, seed, count, words_per_minute=160, pitch=50):
    """A clip of `count` samples: the sentences spoken with 0.25 s of lead-in, mixed with noise."""
    lead_in = np.zeros(SAMPLE_RATE // 4, np.float32)
    speech = np.concatenate([lead_in, speak(" ".join(sentences), voice, words_per_minute, pitch)])
    return mix(fit(speech, count), noise(kind, count, seed), snr_db)
