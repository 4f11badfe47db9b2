/// A DSP component was configured with values it cannot work with.
public struct DSPError: Error, Equatable, CustomStringConvertible {
    /// The component that refused, e.g. `"StreamingResampler"`.
    public let component: String
    /// What is wrong, naming the offending value.
    public let reason: String

    public init(component: String, reason: String) {
        self.component = component
        self.reason = reason
    }

    public var description: String { "\(component): \(reason)" }
}
