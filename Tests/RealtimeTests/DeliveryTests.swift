import DSP
import Testing
import Realtime

/// The OS converter's delivery on the device numbers: 1024 frames at 44.1 kHz to a 16 kHz app.
/// Counts are exact integers; the reference is the closed form floor(k·1024·16000/44100).
struct DeliveryTests {
    static let hardwareRate = 44_100, appRate = 16_000, frames = 1024

    static func makeConverter(_ delivery: DeliveryMode) throws -> SystemConverter {
        try SystemConverter(
            hardware: HardwareFormat(sampleRate: hardwareRate, bufferFrames: frames), appRate: appRate,
            delivery: delivery, makeConverter: { try StreamingResampler(inputRate: $0, outputRate: $1) })
    }

    /// Runs `callbacks` hardware buffers of a test tone through the converter; returns each delivery size.
    static func deliveries(_ delivery: DeliveryMode, callbacks: Int) throws -> [Int] {
        let converter = try makeConverter(delivery)
        var source = TestSignal()
        var hardware = [Float](repeating: 0, count: frames)
        var app = [Float](repeating: 0, count: converter.maximumDeliveryCount)
        var sizes: [Int] = []
        for _ in 0..<callbacks {
            hardware.withUnsafeMutableBufferPointer { _ = source.read(into: $0, sampleRate: hardwareRate) }
            _ = hardware.withUnsafeBufferPointer { converter.convert($0) }
            sizes.append(app.withUnsafeMutableBufferPointer { converter.deliver(into: $0) })
        }
        return sizes
    }

    static func floorTotal(after callbacks: Int) -> Int {
        callbacks * frames * appRate / hardwareRate
    }

    @Test func exactDeliveryHandsOverEveryWholeSample() throws {
        let sizes = try Self.deliveries(.exact, callbacks: 5_000)
        var total = 0
        for (index, size) in sizes.enumerated() {
            total += size
            #expect(total == Self.floorTotal(after: index + 1), "running total after callback \(index + 1)")
            #expect(size == 371 || size == 372)
        }
        #expect(Set(sizes) == [371, 372])
    }

    @Test func legacyDeliveryHandsOverPowersOfTwo() throws {
        let sizes = try Self.deliveries(.pow2, callbacks: 5_000)
        #expect(Array(sizes.prefix(4)) == [256, 256, 512, 256])
        for size in sizes {
            #expect(size == 0 || (size >= 256 && size & (size - 1) == 0), "\(size) is not a power of two ≥ 256")
        }
        // What stays inside is the converted total minus what was handed over.
        #expect(Self.floorTotal(after: 1) - sizes[0] == 115)
        #expect(Self.floorTotal(after: 5_000) - sizes.reduce(0, +) < 512)
    }

    @Test func pow2HoldsBackUntilAtLeast256AreAvailable() {
        #expect(DeliveryMode.pow2.deliverableCount(of: 255) == 0)
        #expect(DeliveryMode.pow2.deliverableCount(of: 256) == 256)
        #expect(DeliveryMode.pow2.deliverableCount(of: 511) == 256)
        #expect(DeliveryMode.pow2.deliverableCount(of: 602) == 512)
        #expect(DeliveryMode.pow2.deliverableCount(of: 4_458) == 4_096)
        #expect(DeliveryMode.exact.deliverableCount(of: 371) == 371)
    }
}
