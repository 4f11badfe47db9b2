/// One explicit state of a stateful model: an output fed back as an input on the next call
/// (`cache_out` → `cache`, say).
public struct StateCarry: Sendable, Hashable {
    public let output: String
    public let input: String
    /// The axis a batch of independent streams lies along in the state ([2, B, H]: 1);
    /// nil when the whole state is one stream's.
    public let batchAxis: Int?

    public init(output: String, input: String, batchAxis: Int? = nil) {
        self.output = output
        self.input = input
        self.batchAxis = batchAxis
    }
}
