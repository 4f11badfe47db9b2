"""silero-vad 6.2.3's ONNX wrapper and speech timestamps, transcribed from its utils_vad.py into numpy (the package
itself needs torch): the reference our Swift voice activity is checked against, and the peer dfbench times.

  OnnxWrapper               utils_vad.OnnxWrapper: 512 new samples at 16 kHz (256 at 8 kHz) behind the last 64
                            (32) samples of the previous model input (zeros before the first), the LSTM state
                            carried from zeros; a rate that is a multiple of 16 kHz is decimated (x[::sr // 16000])
  speech_probabilities      get_speech_timestamps' loop: the wrapper reset, one probability per chunk, the last
                            chunk zero-padded
  speech_timestamps         get_speech_timestamps (decimation of a multiple of 16 kHz, then the loop, then
                            get_speech_timestamps_from_probs), in samples of the rate given
  timestamps_from_probabilities   get_speech_timestamps_from_probs, every branch (max_speech_duration_s included)

Each function keeps the original's names, order of operations and arithmetic (Python floats, int() casts), so that
segment boundaries come out identical, not merely close.
"""
import numpy as np
import onnxruntime as ort


class OnnxWrapper:
    """utils_vad.OnnxWrapper on numpy arrays (float32, like the torch tensors it builds)."""

    def __init__(self, path):
        options = ort.SessionOptions()
        options.inter_op_num_threads = 1
        options.intra_op_num_threads = 1
        self.session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"], sess_options=options)
        self.reset_states()
        self.sample_rates = [16000] if "16k" in str(path) else [8000, 16000]

    def _validate_input(self, x, sr):
        if x.ndim == 1:
            x = x[None, :]
        if x.ndim > 2:
            raise ValueError(f"Too many dimensions for input audio chunk {x.ndim}")
        if sr != 16000 and (sr % 16000 == 0):
            step = sr // 16000
            x = x[:, ::step]
            sr = 16000
        if sr not in self.sample_rates:
            raise ValueError(f"Supported sampling rates: {self.sample_rates} (or multiply of 16000)")
        if sr / x.shape[1] > 31.25:
            raise ValueError("Input audio chunk is too short")
        return x, sr

    def reset_states(self, batch_size=1):
        self._state = np.zeros((2, batch_size, 128), np.float32)
        self._context = np.zeros(0, np.float32)
        self._last_sr = 0
        self._last_batch_size = 0

    def __call__(self, x, sr):
        x, sr = self._validate_input(np.asarray(x, np.float32), sr)
        num_samples = 512 if sr == 16000 else 256
        if x.shape[-1] != num_samples:
            raise ValueError(f"Provided number of samples is {x.shape[-1]} (Supported values: 256 for 8000 sample "
                             "rate, 512 for 16000)")
        batch_size = x.shape[0]
        context_size = 64 if sr == 16000 else 32
        if not self._last_batch_size:
            self.reset_states(batch_size)
        if self._last_sr and self._last_sr != sr:
            self.reset_states(batch_size)
        if self._last_batch_size and self._last_batch_size != batch_size:
            self.reset_states(batch_size)
        if not len(self._context):
            self._context = np.zeros((batch_size, context_size), np.float32)
        x = np.concatenate([self._context, x], axis=1)
        if sr not in (8000, 16000):
            raise ValueError()
        out, state = self.session.run(None, {"input": x, "state": self._state, "sr": np.array(sr, dtype="int64")})
        self._state = state
        self._context = x[..., -context_size:]
        self._last_sr = sr
        self._last_batch_size = batch_size
        return out


def _decimated(audio, sampling_rate):
    """get_speech_timestamps' handling of a multiple of 16 kHz: (audio, rate, step)."""
    if sampling_rate > 16000 and (sampling_rate % 16000 == 0):
        step = sampling_rate // 16000
        return audio[::step], 16000, step
    return audio, sampling_rate, 1


def speech_probabilities(audio, model, sampling_rate=16000):
    """The speech probability of every chunk, as get_speech_timestamps computes them (after its decimation)."""
    audio = np.asarray(audio, np.float32)
    if audio.ndim != 1:
        raise ValueError("More than one dimension in audio. Are you trying to process audio with 2 channels?")
    audio, sampling_rate, _ = _decimated(audio, sampling_rate)
    if sampling_rate not in (8000, 16000):
        raise ValueError("Currently silero VAD models support 8000 and 16000 (or multiply of 16000) sample rates")
    window_size_samples = 512 if sampling_rate == 16000 else 256
    model.reset_states()
    speech_probs = []
    for current_start_sample in range(0, len(audio), window_size_samples):
        chunk = audio[current_start_sample:current_start_sample + window_size_samples]
        if len(chunk) < window_size_samples:
            chunk = np.pad(chunk, (0, int(window_size_samples - len(chunk))))
        speech_probs.append(float(model(chunk, sampling_rate)[0, 0]))
    return speech_probs


def speech_timestamps(audio, model, sampling_rate=16000, **options):
    """get_speech_timestamps: [{'start': sample, 'end': sample}, …] in samples of `sampling_rate`."""
    audio = np.asarray(audio, np.float32)
    speech_probs = speech_probabilities(audio, model, sampling_rate)
    decimated, rate, step = _decimated(audio, sampling_rate)
    return timestamps_from_probabilities(speech_probs, sampling_rate=rate, audio_length_samples=len(decimated),
                                         step=step, **options)


def timestamps_from_probabilities(speech_probs, sampling_rate=16000, threshold=0.5, min_speech_duration_ms=250,
                                  max_speech_duration_s=float("inf"), min_silence_duration_ms=100, speech_pad_ms=30,
                                  return_seconds=False, time_resolution=1, neg_threshold=None,
                                  min_silence_at_max_speech=98, use_max_poss_sil_at_max_speech=True,
                                  audio_length_samples=None, step=1):
    """get_speech_timestamps_from_probs, line for line."""
    window_size_samples = 512 if sampling_rate == 16000 else 256
    if audio_length_samples is None:
        audio_length_samples = len(speech_probs) * window_size_samples

    min_speech_samples = sampling_rate * min_speech_duration_ms / 1000
    speech_pad_samples = sampling_rate * speech_pad_ms / 1000
    max_speech_samples = sampling_rate * max_speech_duration_s - window_size_samples - 2 * speech_pad_samples
    min_silence_samples = sampling_rate * min_silence_duration_ms / 1000
    min_silence_samples_at_max_speech = sampling_rate * min_silence_at_max_speech / 1000

    triggered = False
    speeches = []
    current_speech = {}

    if neg_threshold is None:
        neg_threshold = max(threshold - 0.15, 0.01)
    temp_end = 0
    prev_end = next_start = 0
    possible_ends = []

    for i, speech_prob in enumerate(speech_probs):
        cur_sample = window_size_samples * i

        if (speech_prob >= threshold) and temp_end:
            sil_dur = cur_sample - temp_end
            if sil_dur > min_silence_samples_at_max_speech:
                possible_ends.append((temp_end, sil_dur))
            temp_end = 0
            if next_start < prev_end:
                next_start = cur_sample

        if (speech_prob >= threshold) and not triggered:
            triggered = True
            current_speech["start"] = cur_sample
            continue

        if triggered and (cur_sample - current_speech["start"] > max_speech_samples):
            if use_max_poss_sil_at_max_speech and possible_ends:
                prev_end, dur = max(possible_ends, key=lambda x: x[1])
                current_speech["end"] = prev_end
                speeches.append(current_speech)
                current_speech = {}
                next_start = prev_end + dur
                if next_start < prev_end + cur_sample:
                    current_speech["start"] = next_start
                else:
                    triggered = False
                prev_end = next_start = temp_end = 0
                possible_ends = []
            else:
                if prev_end:
                    current_speech["end"] = prev_end
                    speeches.append(current_speech)
                    current_speech = {}
                    if next_start < prev_end:
                        triggered = False
                    else:
                        current_speech["start"] = next_start
                    prev_end = next_start = temp_end = 0
                    possible_ends = []
                else:
                    current_speech["end"] = cur_sample
                    speeches.append(current_speech)
                    current_speech = {}
                    prev_end = next_start = temp_end = 0
                    triggered = False
                    possible_ends = []
                    continue

        if (speech_prob < neg_threshold) and triggered:
            if not temp_end:
                temp_end = cur_sample
            sil_dur_now = cur_sample - temp_end
            if not use_max_poss_sil_at_max_speech and sil_dur_now > min_silence_samples_at_max_speech:
                prev_end = temp_end
            if sil_dur_now < min_silence_samples:
                continue
            else:
                current_speech["end"] = temp_end
                if (current_speech["end"] - current_speech["start"]) > min_speech_samples:
                    speeches.append(current_speech)
                current_speech = {}
                prev_end = next_start = temp_end = 0
                triggered = False
                possible_ends = []
                continue

    if current_speech and (audio_length_samples - current_speech["start"]) > min_speech_samples:
        current_speech["end"] = audio_length_samples
        speeches.append(current_speech)

    for i, speech in enumerate(speeches):
        if i == 0:
            speech["start"] = int(max(0, speech["start"] - speech_pad_samples))
        if i != len(speeches) - 1:
            silence_duration = speeches[i + 1]["start"] - speech["end"]
            if silence_duration < 2 * speech_pad_samples:
                speech["end"] += int(silence_duration // 2)
                speeches[i + 1]["start"] = int(max(0, speeches[i + 1]["start"] - silence_duration // 2))
            else:
                speech["end"] = int(min(audio_length_samples, speech["end"] + speech_pad_samples))
                speeches[i + 1]["start"] = int(max(0, speeches[i + 1]["start"] - speech_pad_samples))
        else:
            speech["end"] = int(min(audio_length_samples, speech["end"] + speech_pad_samples))

    if return_seconds:
        audio_length_seconds = audio_length_samples / sampling_rate
        for speech_dict in speeches:
            speech_dict["start"] = max(round(speech_dict["start"] / sampling_rate, time_resolution), 0)
            speech_dict["end"] = min(round(speech_dict["end"] / sampling_rate, time_resolution), audio_length_seconds)
    elif step > 1:
        for speech_dict in speeches:
            speech_dict["start"] *= step
            speech_dict["end"] *= step
    return speeches

