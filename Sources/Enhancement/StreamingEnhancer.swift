/// A speech enhancer as every command, the simulator, the plugins and corpus runs reach it: mono
/// samples at its own rate in, enhanced samples out, block by block, each output sample
/// `latency` samples after the input sample it enhances. Each model module conforms its enhancers
/// to this; nothing above the model modules knows which model runs.
///
/// Meaning of `latency`: the output of a stream at index n + latency equals the model's offline
/// output (the whole signal enhanced at once, aligned with the input) at index n. `finish`
/// delivers the last `latency` samples (and those of a last partial block) as the offline output
/// ends them.
public protocol StreamingEnhancer: AnyObject {
    /// The model's name, as commands take it (`--model NAME`).
    var name: String { get }
    var sampleRate: Int { get }
    /// Samples per model step (e.g. 480 = 10 ms at 48 kHz).
    var hopSize: Int { get }
    /// Samples per `process` call: a whole number of hops (one for real time; offline enhancers
    /// may take more per call, e.g. chunks of 100 hops).
    var blockSize: Int { get }
    /// Samples from an input sample to its enhanced output sample (see above).
    var latency: Int { get }
    /// Enhances one block: `input` and `output` hold `blockSize` samples each. Allocates nothing,
    /// takes no lock and cannot fail once the enhancer is built (real time runs here).
    func process(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>)
    /// Ends the stream: `remainder` holds the last input samples (fewer than `blockSize`);
    /// writes the last `latency + remainder.count` output samples into `output` (which must hold
    /// them) and returns that count. Not for the real-time path (it may do a stream's worth of
    /// end-of-signal work); afterwards `reset()` before another stream.
    func finish(_ remainder: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) -> Int
    /// Back to the state of a fresh enhancer.
    func reset()
}
