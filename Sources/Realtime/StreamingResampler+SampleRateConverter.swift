import DSP

/// The product's OS converter: the DSP polyphase resampler keeps its fractional position between
/// calls and is an exact identity for equal rates.
extension StreamingResampler: SampleRateConverter {}
