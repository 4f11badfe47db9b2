#!/usr/bin/env python3
"""The reference implementations' scores of real clean/degraded speech pairs, the truth our Swift metrics are checked
against: pystoi 0.4.1 (STOI, ESTOI), mir_eval 0.8.2 (BSS-eval SDR, 512-tap filter), numpy (SI-SDR as Le Roux et al.
2019 define it, SNR), speechmos 0.0.1.1 (DNSMOS P.835 and P.808, on librosa 0.11.0) and silero-vad 6.2.3's ONNX
wrapper and get_speech_timestamps (transcribed into numpy in silero_vad_reference.py, on onnxruntime).

usage: gen-metrics-references.py OUTDIR   (run by Scripts/generate-fixtures into .../generated/metrics-references)

Clips (mono float32 WAVs in OUTDIR/clips/, named <clip>.<rate>.<kind>.wav):
  white-snr5, pink-snr0, babble-snr10-dropout   the 2 s clips of Tests/Fixtures/references (manifest.json says how
                                  they were made); `clean` is their speech alone, regenerated here with
                                  noisy_speech.py exactly as the mixture was made (the regenerated mixture is checked
                                  against the committed noisy WAV sample for sample); `noisy` the committed mixture;
                                  `dfn3` the official DFN3 output (<clip>.default.wav, its 1440-sample delay removed);
                                  `gtcrn` (16 kHz only) the GTCRN reference <clip>-gtcrn16k.enhanced.wav
  sample                          the 10 s README sample (Scripts/make-sample), `clean` and `noisy` likewise
  sample-20s                      (16 kHz) the sample's noisy then its clean half: 20 s, eleven DNSMOS windows
  silence, short                  (16 kHz) 1 s of zeros; 100 samples of seeded noise (less than one VAD chunk)
48 kHz is the clips' own rate; 16, 10 and 8 kHz versions are soxr.resample(…, quality="VHQ") of the 48 kHz ones
(32 kHz for the VAD's decimation), except gtcrn, which is 16 kHz already.

Files:
  intrusive.json    [{"clean", "degraded", "sample_rate", "stoi", "estoi", "si_sdr_db", "sdr_db", "snr_db"}]: pystoi
                    on float64 copies of the float32 samples (numpy's global generator seeded with 0 before each
                    ESTOI, whose normalisation adds noise of 2.2e-16), mir_eval.separation.bss_eval_sources, numpy
  dnsmos.json       [{"file", "sample_rate", "input", "sig", "bak", "ovrl", "p808"}]: speechmos.dnsmos.run; "input"
                    says whether speechmos got the samples (16 kHz) or the path (other rates: librosa.load resamples
                    to 16 kHz with soxr HQ)
  p808-features.f32 speechmos' P.808 input for the first window of sample.16000.noisy: [900, 120] float32 (raw,
                    little-endian, frame after frame)
  mel-filters.f32   librosa.filters.mel(sr=16000, n_fft=321, n_mels=120): [120, 161] float32, band after band
  vad.json          [{"file", "sample_rate", "model_rate", "step", "resampled", "probabilities", "segments"}]:
                    the wrapper's probability per chunk and get_speech_timestamps' segments [[start, end], …] in
                    samples of the file's rate (decimated rates: times `step`, as silero-vad returns them) or, for
                    a rate silero-vad does not take (44.1 kHz), of 16 kHz after soxr.resample(…, "HQ")
"""
import hashlib
import json
import sys
import warnings
from importlib.metadata import version
from pathlib import Path

import numpy as np
import soxr

sys.path.insert(0, str(Path(__file__).resolve().parent))
import noisy_speech  # noqa: E402
import silero_vad_reference as vad  # noqa: E402
from wav_file import read_wav, write_wav  # noqa: E402

import librosa  # noqa: E402
import mir_eval.separation  # noqa: E402
import pystoi  # noqa: E402
import speechmos.dnsmos  # noqa: E402

# bss_eval_sources is deprecated in mir_eval 0.8 (to go in 0.9); the pinned version has it, unchanged.
warnings.filterwarnings("ignore", message="mir_eval.separation.bss_eval_sources", category=FutureWarning)

ROOT = Path(__file__).resolve().parent.parent
REFERENCES = ROOT / "Tests" / "Fixtures" / "references"
SAMPLE = ROOT / "Tests" / "Fixtures" / "generated" / "sample" / "noisy_speech.wav"
MODELS = ROOT / "Models"
RATE = noisy_speech.SAMPLE_RATE
DFN3_DELAY = 1440

# Scripts/make-sample's clip.
SAMPLE_CLIP = {"sentences": noisy_speech.HARVARD[3:7], "voice": "en-us", "noise": "pink", "snr_db": 5.0,
               "seed": 2026, "samples": 10 * RATE}


class ReferenceError(RuntimeError):
    pass


def speech_and_mixture(sentences, voice, kind, snr_db, seed, count):
    """(clean, noisy) float32: noisy_speech.noisy_speech's mixture and the scaled speech inside it."""
    lead_in = np.zeros(RATE // 4, np.float32)
    speech = noisy_speech.fit(np.concatenate([lead_in, noisy_speech.speak(" ".join(sentences), voice)]), count)
    noisy = noisy_speech.mix(speech, noisy_speech.noise(kind, count, seed), snr_db)
    level = 10 ** (noisy_speech.SPEECH_LEVEL_DBFS / 10)
    clean = speech.astype(np.float64) * np.sqrt(level / noisy_speech.active_power(speech))
    return clean.astype(np.float32), noisy


def checked_mixture(regenerated, path):
    committed, rate = read_wav(path)
    if rate != RATE or not np.array_equal(committed, regenerated):
        raise ReferenceError(f"{path}: the mixture regenerated with noisy_speech.py differs from the file "
                             "(another espeak-ng version?); the clean speech would not be the one inside it")
    return committed


def resample(signal, rate, quality="VHQ"):
    return signal if rate == RATE else soxr.resample(signal, RATE, rate, quality=quality).astype(np.float32)


class Clips:
    """Writes clips into OUTDIR/clips and remembers them by (clip, rate, kind)."""

    def __init__(self, out):
        self.folder = out / "clips"
        self.folder.mkdir(parents=True)
        self.signals = {}

    def add(self, clip, rate, kind, signal):
        name = f"{clip}.{rate}.{kind}.wav"
        write_wav(self.folder / name, signal, rate)
        self.signals[(clip, rate, kind)] = (f"clips/{name}", signal)

    def get(self, clip, rate, kind):
        return self.signals[(clip, rate, kind)]


def make_clips(out):
    clips = Clips(out)
    manifest = json.loads((REFERENCES / "manifest.json").read_text())
    two_second = []
    for entry in manifest["clips"]:
        if entry["sample_rate"] != RATE:
            continue
        name = entry["name"]
        clean, noisy = speech_and_mixture([entry["text"]], entry["voice"], entry["noise"], entry["snr_db"],
                                          entry["seed"], entry["samples"])
        if "digital_silence_hops" in entry:
            first, end = entry["digital_silence_hops"]
            noisy[first * 480:end * 480] = 0
        noisy = checked_mixture(noisy, REFERENCES / entry["file"])
        enhanced, _ = read_wav(REFERENCES / f"{name}.default.wav")
        dfn3 = enhanced[DFN3_DELAY:DFN3_DELAY + noisy.size]
        for rate in (48000, 16000, 8000):
            clips.add(name, rate, "clean", resample(clean, rate))
            clips.add(name, rate, "noisy", resample(noisy, rate))
            clips.add(name, rate, "dfn3", resample(dfn3, rate))
        gtcrn, gtcrn_rate = read_wav(REFERENCES / f"{name}-gtcrn16k.enhanced.wav")
        if gtcrn_rate != 16000 or gtcrn.size != clips.get(name, 16000, "clean")[1].size:
            raise ReferenceError(f"{name}-gtcrn16k.enhanced.wav: {gtcrn.size} samples at {gtcrn_rate} Hz")
        clips.add(name, 16000, "gtcrn", gtcrn)
        two_second.append(name)
    if len(two_second) != 3:
        raise ReferenceError(f"{REFERENCES / 'manifest.json'}: expected three 48 kHz clips, found {two_second}")

    clean, noisy = speech_and_mixture(SAMPLE_CLIP["sentences"], SAMPLE_CLIP["voice"], SAMPLE_CLIP["noise"],
                                      SAMPLE_CLIP["snr_db"], SAMPLE_CLIP["seed"], SAMPLE_CLIP["samples"])
    noisy = checked_mixture(noisy, SAMPLE)
    for rate in (48000, 32000, 16000, 10000, 8000):
        clips.add("sample", rate, "clean", resample(clean, rate))
        clips.add("sample", rate, "noisy", resample(noisy, rate))
    clips.add("sample-20s", 16000, "noisy-clean", np.concatenate(
        [clips.get("sample", 16000, "noisy")[1], clips.get("sample", 16000, "clean")[1]]))
    clips.add("silence", 16000, "zeros", np.zeros(16000, np.float32))
    clips.add("short", 16000, "noise", (0.1 * np.random.default_rng(19).standard_normal(100)).astype(np.float32))
    return clips, two_second


def si_sdr(clean, estimate):
    s, e = clean.astype(np.float64), estimate.astype(np.float64)
    target = np.dot(e, s) / np.dot(s, s) * s
    return float(10 * np.log10(np.sum(target ** 2) / np.sum((target - e) ** 2)))


def snr(clean, estimate):
    s, e = clean.astype(np.float64), estimate.astype(np.float64)
    return float(10 * np.log10(np.sum(s ** 2) / np.sum((e - s) ** 2)))


def intrusive(clips, two_second):
    pairs = []
    for rate in (48000, 16000, 8000):
        for name in two_second + ["sample"]:
            kinds = ["noisy"] + (["dfn3"] if name != "sample" else []) + (["gtcrn"] if rate == 16000 and name != "sample" else [])
            pairs += [(name, rate, kind) for kind in kinds]
    pairs.append(("sample", 10000, "noisy"))
    cases = []
    for name, rate, kind in pairs:
        clean_file, clean = clips.get(name, rate, "clean")
        degraded_file, degraded = clips.get(name, rate, kind)
        x, y = clean.astype(np.float64), degraded.astype(np.float64)
        np.random.seed(0)
        estoi = float(pystoi.stoi(x, y, rate, extended=True))
        sdr = mir_eval.separation.bss_eval_sources(x[None], y[None])[0][0]
        cases.append({"clean": clean_file, "degraded": degraded_file, "sample_rate": rate,
                      "stoi": float(pystoi.stoi(x, y, rate)), "estoi": estoi, "si_sdr_db": si_sdr(clean, degraded),
                      "sdr_db": float(sdr), "snr_db": snr(clean, degraded)})
    return cases


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def dnsmos(clips, two_second, out):
    package = Path(speechmos.dnsmos.__file__).parent / "dnsmos_models"
    for model in ("sig_bak_ovr.onnx", "model_v8.onnx"):
        if sha256(package / model) != sha256(MODELS / "DNSMOS" / model):
            raise ReferenceError(f"speechmos' {model} is not Models/DNSMOS/{model}; run Scripts/fetch-model")
    arrays = [clips.get(name, 16000, kind) for name in two_second for kind in ("clean", "noisy", "dfn3", "gtcrn")]
    arrays += [clips.get("sample", 16000, "clean"), clips.get("sample", 16000, "noisy"),
               clips.get("sample-20s", 16000, "noisy-clean")]
    files = [(clips.get("sample", 48000, "noisy")[0], 48000), (clips.get("pink-snr0", 8000, "noisy")[0], 8000)]
    cases = []
    for file, signal in arrays:
        scores = speechmos.dnsmos.run(signal, 16000)
        cases.append({"file": file, "sample_rate": 16000, "input": "samples", **named(scores)})
    for file, rate in files:
        scores = speechmos.dnsmos.run(str(out / file), 16000)
        cases.append({"file": file, "sample_rate": rate, "input": "path", **named(scores)})
    window = clips.get("sample", 16000, "noisy")[1][:144160]
    features = speechmos.dnsmos.DNSMOS.audio_melspec(None, audio=window[:-160]).astype("<f4")
    (out / "p808-features.f32").write_bytes(features.tobytes())
    filters = librosa.filters.mel(sr=16000, n_fft=321, n_mels=120).astype("<f4")
    (out / "mel-filters.f32").write_bytes(filters.tobytes())
    return cases


def named(scores):
    return {"sig": float(scores["sig_mos"]), "bak": float(scores["bak_mos"]), "ovrl": float(scores["ovrl_mos"]),
            "p808": float(scores["p808_mos"])}


def voice_activity(clips, two_second, out):
    model = vad.OnnxWrapper(MODELS / "SileroVAD" / "silero_vad.onnx")
    inputs = [clips.get(name, 16000, kind) for name in two_second for kind in ("clean", "noisy", "gtcrn")]
    inputs += [clips.get(name, 8000, kind) for name in two_second for kind in ("clean", "noisy")]
    inputs += [clips.get("sample", rate, kind) for rate in (16000, 8000, 48000, 32000) for kind in ("clean", "noisy")]
    inputs += [clips.get("white-snr5", 48000, "noisy"), clips.get("sample-20s", 16000, "noisy-clean"),
               clips.get("silence", 16000, "zeros"), clips.get("short", 16000, "noise")]
    cases = []
    for file, signal in inputs:
        rate = read_wav(out / file)[1]
        step = rate // 16000 if rate > 16000 and rate % 16000 == 0 else 1
        probabilities = vad.speech_probabilities(signal, model, rate)
        segments = vad.speech_timestamps(signal, model, rate)
        cases.append({"file": file, "sample_rate": rate, "model_rate": 8000 if rate == 8000 else 16000, "step": step,
                      "resampled": False, "probabilities": probabilities,
                      "segments": [[s["start"], s["end"]] for s in segments]})
    # A rate silero-vad refuses: resampled to 16 kHz first (soxr HQ), as our voice activity does.
    signal, rate = read_wav(REFERENCES / "white-snr5-44k1.noisy.wav")
    write_wav(out / "clips/white-snr5.44100.noisy.wav", signal, rate)
    resampled = soxr.resample(signal, rate, 16000, quality="HQ").astype(np.float32)
    cases.append({"file": "clips/white-snr5.44100.noisy.wav", "sample_rate": rate, "model_rate": 16000, "step": 1,
                  "resampled": True, "probabilities": vad.speech_probabilities(resampled, model, 16000),
                  "segments": [[s["start"], s["end"]] for s in vad.speech_timestamps(resampled, model, 16000)]})
    return cases


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen-metrics-references.py OUTDIR")
    out = Path(sys.argv[1])
    try:
        clips, two_second = make_clips(out)
        documents = {"intrusive.json": intrusive(clips, two_second), "dnsmos.json": dnsmos(clips, two_second, out),
                     "vad.json": voice_activity(clips, two_second, out)}
    except (ReferenceError, noisy_speech.SynthesisError, OSError) as error:
        sys.exit(f"gen-metrics-references: error: {error}")
    for name, document in documents.items():
        (out / name).write_text(json.dumps(document, indent=1))
    (out / "versions.json").write_text(json.dumps({package: version(package) for package in (
        "pystoi", "mir_eval", "speechmos", "librosa", "onnxruntime", "numpy", "scipy", "soxr")}, indent=1))
    print(f"gen-metrics-references: {len(documents['intrusive.json'])} intrusive pairs, "
          f"{len(documents['dnsmos.json'])} DNSMOS clips, {len(documents['vad.json'])} VAD clips", file=sys.stderr)


if __name__ == "__main__":
    main()
