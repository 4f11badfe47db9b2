/// The operating system's side of capture: converts each hardware buffer to the app's rate,
/// keeps what it does not hand over, and releases samples according to its `DeliveryMode`.
///
/// 1024 frames at 44.1 kHz become 371.52 samples at 16 kHz per callback; the converter keeps the
/// fractional remainder, so whole samples accumulate and `pow2` delivery holds back the rest.
public final class SystemConverter {
    public private(set) var hardware: HardwareFormat
    public let appRate: Int
    public let delivery: DeliveryMode
    private var converter: any SampleRateConverter
    private let makeConverter: SampleRateConverterFactory
    private let held: SampleRing
    private let converted: UnsafeMutableBufferPointer<Float>

    /// The largest chunk one `deliver` can return.
    public let maximumDeliveryCount: Int

    /// - Parameter hardwareRates: every rate the hardware may switch to later, so buffers are sized once.
    public init(
        hardware: HardwareFormat, appRate: Int, delivery: DeliveryMode,
        hardwareRates: Set<Int> = [], makeConverter: @escaping SampleRateConverterFactory
    ) throws {
        try SampleRates.validate(appRate, role: "app")
        self.hardware = hardware
        self.appRate = appRate
        self.delivery = delivery
        self.makeConverter = makeConverter
        converter = try makeConverter(hardware.sampleRate, appRate)
        var largestOutput = converter.maximumOutputCount(forInputCount: hardware.bufferFrames)
        for rate in hardwareRates.subtracting([hardware.sampleRate]) {
            let rerouted = try hardware.rerouted(to: rate)
            let probe = try makeConverter(rerouted.sampleRate, appRate)
            largestOutput = max(largestOutput, probe.maximumOutputCount(forInputCount: rerouted.bufferFrames))
        }
        // pow2 keeps less than max(256, one callback's output) after delivering (it hands over more
        // than half of what is available whenever it hands over anything), so this never overflows.
        let heldBound = max(DeliveryMode.minimumPowerOfTwoChunk, largestOutput)
        held = try SampleRing(minimumCapacity: heldBound + largestOutput)
        maximumDeliveryCount = heldBound + largestOutput
        converted = .allocate(capacity: largestOutput)
        converted.initialize(repeating: 0)
    }

    deinit {
        converted.deallocate()
    }

    /// Converted samples the OS holds back from the app.
    public var heldCount: Int { held.readableCount }

    /// The converter's group delay in app-rate samples.
    public var converterDelay: Double { converter.delay }

    /// Converts one hardware buffer into the held samples and returns how many were added.
    @discardableResult
    public func convert(_ hardwareBuffer: UnsafeBufferPointer<Float>) -> Int {
        let count = converter.process(hardwareBuffer, into: converted)
        return held.write(UnsafeBufferPointer(rebasing: converted[..<count]))
    }

    /// Hands the app what the delivery mode releases now and returns its count.
    public func deliver(into destination: UnsafeMutableBufferPointer<Float>) -> Int {
        let count = delivery.deliverableCount(of: held.readableCount)
        return held.read(into: UnsafeMutableBufferPointer(rebasing: destination[..<min(count, destination.count)]))
    }

    /// A route change: the hardware now runs at `rate` with the same buffer size; a new converter
    /// starts from there while the samples already converted stay held for the app.
    public func reroute(to rate: Int) throws {
        let rerouted = try hardware.rerouted(to: rate)
        let next = try makeConverter(rate, appRate)
        guard next.maximumOutputCount(forInputCount: rerouted.bufferFrames) <= converted.count else {
            throw RealtimeError.invalidSetting("route change to \(rate) Hz was not announced when the capture path was set up")
        }
        hardware = rerouted
        converter = next
    }
}
