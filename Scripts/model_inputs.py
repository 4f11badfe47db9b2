"""Inputs of the GTCRN, Silero VAD and DNSMOS graphs made from audio as their own front ends make them,
in numpy (neither torch nor librosa), and onnxruntime sessions as the fixtures and the benchmarks run them.

  gtcrn_frames       GTCRN's streaming script: torch.stft(x, 512, 256, 512, hann_window(512).pow(0.5),
                     center=True) (reflect padding of 256 at both ends), one [1, 257, 1, 2] frame per hop
  silero_chunks      silero-vad's OnnxWrapper: 512 new samples at 16 kHz (256 at 8 kHz) behind the last 64
                     (32) samples of the previous model input, zeros before the first
  dnsmos_window      speechmos' DNSMOS: the first 9.01 s window (144160 samples at 16 kHz)
  p808_features      its P.808 input: (librosa.power_to_db(melspectrogram(y=window[:-160], sr=16000,
                     n_fft=321, hop_length=160, n_mels=120), ref=np.max) + 40) / 40, transposed: [1, 900, 120]
"""
from pathlib import Path

import numpy as np
import onnxruntime as ort
import soxr

from wav_file import read_wav

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "Models"
CLIP = ROOT / "Tests" / "Fixtures" / "generated" / "sample" / "noisy_speech.wav"
CLIP_NAME = "sample/noisy_speech.wav"

GTCRN_FFT, GTCRN_HOP = 512, 256
SILERO_CHUNK = {16000: 512, 8000: 256}
SILERO_CONTEXT = {16000: 64, 8000: 32}
DNSMOS_RATE, DNSMOS_WINDOW = 16000, 144160
P808_FFT, P808_HOP, P808_MELS = 321, 160, 120


class ModelInputError(RuntimeError):
    pass


def session(path):
    """An onnxruntime session on one intra-op thread with the default graph optimisations."""
    if not Path(path).is_file():
        raise ModelInputError(f"{path} is missing; run Scripts/fetch-model")
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.log_severity_level = 3  # silero_vad_op18_ifless.onnx carries unused initializers ORT warns about
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def clip(rate, path=CLIP):
    """The 48 kHz sample clip resampled to `rate` (soxr, very high quality), float32."""
    if not Path(path).is_file():
        raise ModelInputError(f"{path} is missing" + (f"; run Scripts/make-sample {path}" if path == CLIP else ""))
    signal, source_rate = read_wav(path)
    if source_rate != 48000:
        raise ModelInputError(f"{path}: {source_rate} Hz, expected 48000 Hz")
    return soxr.resample(signal, 48000, rate, "VHQ").astype(np.float32)


def gtcrn_frames(signal):
    """[T, 1, 257, 1, 2] float32: real and imaginary parts of each STFT frame, T = 1 + len // 256."""
    padded = np.pad(signal.astype(np.float64), GTCRN_HOP, mode="reflect")
    count = 1 + signal.size // GTCRN_HOP
    window = np.sqrt(0.5 - 0.5 * np.cos(2 * np.pi * np.arange(GTCRN_FFT) / GTCRN_FFT))
    starts = np.arange(count)[:, None] * GTCRN_HOP
    spectra = np.fft.rfft(padded[starts + np.arange(GTCRN_FFT)] * window, axis=1)
    frames = np.stack([spectra.real, spectra.imag], axis=-1)  # [T, 257, 2]
    return frames[:, None, :, None, :].astype(np.float32)


def silero_chunks(signal, rate):
    """[T, 1, context + chunk] float32 model inputs over the whole chunks of `signal`."""
    chunk, context = SILERO_CHUNK[rate], SILERO_CONTEXT[rate]
    chunks = signal[:signal.size // chunk * chunk].reshape(-1, chunk)
    previous = np.concatenate([np.zeros((1, context), np.float32), chunks[:-1, -context:]])
    return np.concatenate([previous, chunks], axis=1)[:, None, :].astype(np.float32)


def dnsmos_window(signal):
    """[1, 144160] float32: the first 9.01 s of 16 kHz audio, DNSMOS P.835's input."""
    if signal.size < DNSMOS_WINDOW:
        raise ModelInputError(f"{signal.size} samples, DNSMOS needs {DNSMOS_WINDOW}")
    return signal[None, :DNSMOS_WINDOW].astype(np.float32)


def _hz_to_mel(hz):
    """Slaney's mel scale (librosa's htk=False): linear below 1 kHz, logarithmic above."""
    hz = np.asarray(hz, np.float64)
    linear = hz / (200 / 3)
    logarithmic = 15 + np.log(np.maximum(hz, 1e-10) / 1000) / (np.log(6.4) / 27)
    return np.where(hz >= 1000, logarithmic, linear)


def _mel_to_hz(mel):
    mel = np.asarray(mel, np.float64)
    return np.where(mel >= 15, 1000 * np.exp((np.log(6.4) / 27) * (mel - 15)), mel * (200 / 3))


def mel_filters(rate, n_fft, mels):
    """[mels, n_fft // 2 + 1] triangles on the Slaney scale with Slaney (area) normalisation, like
    librosa.filters.mel(sr=rate, n_fft=n_fft, n_mels=mels, htk=False, norm="slaney")."""
    edges = _mel_to_hz(np.linspace(_hz_to_mel(0), _hz_to_mel(rate / 2), mels + 2))
    bins = np.fft.rfftfreq(n_fft, 1 / rate)
    widths = np.diff(edges)
    ramps = edges[:, None] - bins[None, :]
    rising = -ramps[:-2] / widths[:-1, None]
    falling = ramps[2:] / widths[1:, None]
    weights = np.maximum(0, np.minimum(rising, falling))
    return weights * (2 / (edges[2:] - edges[:-2]))[:, None]


MEL_FILTERS = mel_filters(DNSMOS_RATE, P808_FFT, P808_MELS)


def p808_features(window):
    """[1, 900, 120] float32 log-mel features of a [1, 144160] window as speechmos computes them: centred
    STFT (zero padding of 160 at both ends, periodic Hann of 321), power, mel, dB relative to the maximum
    floored 80 dB below it, mapped by (dB + 40) / 40 into [-1, 1]."""
    signal = window[0, :-P808_HOP].astype(np.float64)
    padded = np.pad(signal, P808_FFT // 2)
    count = 1 + (padded.size - P808_FFT) // P808_HOP
    hann = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(P808_FFT) / P808_FFT)
    starts = np.arange(count)[:, None] * P808_HOP
    power = np.abs(np.fft.rfft(padded[starts + np.arange(P808_FFT)] * hann, axis=1)) ** 2
    mel = power @ MEL_FILTERS.T
    decibels = 10 * np.log10(np.maximum(mel, 1e-10)) - 10 * np.log10(max(mel.max(), 1e-10))
    decibels = np.maximum(decibels, decibels.max() - 80)
    return ((decibels + 40) / 40).astype(np.float32)[None]
