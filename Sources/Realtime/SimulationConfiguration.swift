/// One capture scenario: hardware, the app's rate, the OS delivery mode, faults and what to keep.
public struct SimulationConfiguration: Sendable {
    public var hardware: HardwareFormat
    public var appRate: Int
    public var delivery: DeliveryMode
    /// Simulated seconds; the run also ends when the source ends.
    public var duration: Double
    public var faults: [Fault]
    /// When false every frame passes through unprocessed and uncharged, as in a disabled canceller.
    public var noiseCancellationEnabled: Bool
    /// Keep one `CallbackRecord` per callback (memory grows with the duration).
    public var recordsCallbacks: Bool
    /// Keep the forwarded output samples (memory grows with the duration).
    public var collectsOutput: Bool

    public init(
        hardware: HardwareFormat, appRate: Int, delivery: DeliveryMode, duration: Double,
        faults: [Fault] = [], noiseCancellationEnabled: Bool = true,
        recordsCallbacks: Bool = false, collectsOutput: Bool = false
    ) {
        self.hardware = hardware
        self.appRate = appRate
        self.delivery = delivery
        self.duration = duration
        self.faults = faults
        self.noiseCancellationEnabled = noiseCancellationEnabled
        self.recordsCallbacks = recordsCallbacks
        self.collectsOutput = collectsOutput
    }

    /// Every hardware rate this scenario visits, the initial one first.
    public var hardwareRates: [Int] {
        var rates = [hardware.sampleRate]
        for case .routeChange(_, let rate) in faults.sorted(by: { $0.time < $1.time }) where !rates.contains(rate) {
            rates.append(rate)
        }
        return rates
    }

    func validate() throws(RealtimeError) {
        guard duration.isFinite, duration > 0, duration <= 366 * 86_400 else {
            throw .invalidSetting("duration \(duration) s must be positive and at most a year")
        }
        for fault in faults { try fault.validate() }
    }
}
