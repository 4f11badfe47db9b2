/// Why a callback finished after its deadline (the arrival of the next hardware buffer).
public enum DeadlineMiss: String, Encodable, Sendable, CaseIterable {
    /// An injected stall held this callback up.
    case stall
    /// The frames this callback released took longer to process than one callback period.
    case processing
    /// The callback's own work fit, but it could only start after an earlier late callback.
    case backlog
}
