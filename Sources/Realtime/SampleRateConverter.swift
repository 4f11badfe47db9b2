/// A streaming sample-rate converter that keeps its fractional remainder between calls: after
/// any sequence of calls its output count is floor(totalInputCount · outputRate / inputRate).
///
/// The OS converter of the capture path is built on this; the product uses `DSP.StreamingResampler`,
/// tests may substitute a simpler converter to isolate the delivery logic.
public protocol SampleRateConverter {
    var inputRate: Int { get }
    var outputRate: Int { get }
    /// Group delay in output samples.
    var delay: Double { get }
    var totalInputCount: Int { get }
    var totalOutputCount: Int { get }

    /// An upper bound of what one call with `n` input samples can return.
    func maximumOutputCount(forInputCount n: Int) -> Int
    /// Converts `input`, writes the samples now complete to `output` and returns their count.
    mutating func process(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) -> Int
    mutating func reset()
}

/// Makes the converter for a hardware rate → app rate pair; called at setup and on route changes.
public typealias SampleRateConverterFactory = (_ inputRate: Int, _ outputRate: Int) throws -> any SampleRateConverter
