import Testing
import Realtime

/// The callback periods quoted from real devices: 256/512/1024 frames at 44.1 kHz and at 16 kHz
/// (a Bluetooth headset). The tolerance is half a unit of the last digit the quote gives.
struct HardwareFormatTests {
    @Test(arguments: [
        (44_100, 256, 5.805, 0.0005), (44_100, 512, 11.61, 0.005), (44_100, 1024, 23.22, 0.005),
        (16_000, 256, 16.0, 0.0), (16_000, 512, 32.0, 0.0), (16_000, 1024, 64.0, 0.0),
    ])
    func callbackPeriodMatchesDevices(rate: Int, frames: Int, quotedMilliseconds: Double, tolerance: Double) throws {
        let format = try HardwareFormat(sampleRate: rate, bufferFrames: frames)
        #expect(abs(format.callbackPeriodMilliseconds - quotedMilliseconds) <= tolerance)
    }

    @Test(arguments: [0, 128, 255, 300, 1000, 1023, 8192, -256])
    func refusesBuffersThatAreNotPowersOfTwoFrom256To4096(frames: Int) {
        #expect(throws: RealtimeError.unsupportedBufferSize(frames)) {
            try HardwareFormat(sampleRate: 48_000, bufferFrames: frames)
        }
    }

    @Test func acceptsEveryPowerOfTwoFrom256To4096() throws {
        for exponent in 8...12 {
            #expect(try HardwareFormat(sampleRate: 48_000, bufferFrames: 1 << exponent).bufferFrames == 1 << exponent)
        }
    }

    @Test func refusesAbsurdRatesWithTheRoleNamed() {
        #expect(throws: RealtimeError.unsupportedSampleRate(0, role: "hardware")) {
            try HardwareFormat(sampleRate: 0, bufferFrames: 1024)
        }
        let message = RealtimeError.unsupportedBufferSize(1000).description
        #expect(message.contains("1000") && message.contains("256") && message.contains("4096"))
    }
}
