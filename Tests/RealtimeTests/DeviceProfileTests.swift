import Testing
import Realtime

/// Every device profile reproduces its platform's callback sizes (the README's table gives the
/// sources): the app sees B samples per callback when the OS does not convert (AAudio's 192-frame
/// burst, WebAudio's 128-frame quantum, PipeWire's 1024 quantum, a JACK period, WASAPI's 10 ms,
/// a 16 kHz headset); with conversion, the running total after callback k is the closed form
/// floor(k·B·app rate / hardware rate) (every whole sample), or power-of-two chunks for iOS 5.
struct DeviceProfileTests {
    /// The app-side callback sizes of `seconds` of simulated capture through `profile`.
    static func callbackSizes(_ profile: DeviceProfile, bufferFrames: Int? = nil, seconds: Double = 2) throws -> [Int] {
        let configuration = SimulationConfiguration(
            hardware: try profile.hardware(bufferFrames: bufferFrames), appRate: profile.appRate, delivery: profile.delivery,
            duration: seconds, recordsCallbacks: true)
        let result = try CaptureSimulator(configuration: configuration, source: TestSignal(), processor: PassThroughProcessor()).run()
        return result.callbacks.map(\.appSamples)
    }

    /// The closed form for every-whole-sample delivery.
    static func expectRunningTotals(_ sizes: [Int], frames: Int, hardwareRate: Int, appRate: Int, _ name: String) {
        var total = 0
        for (index, size) in sizes.enumerated() {
            total += size
            let expected = (index + 1) * frames * appRate / hardwareRate
            if total != expected {
                Issue.record("\(name): running total \(total) after callback \(index + 1), expected \(expected)")
                return
            }
        }
    }

    @Test(arguments: [("aaudio", 192), ("webaudio", 128), ("pipewire", 1_024), ("jack", 256), ("wasapi", 480), ("hfp-wideband", 256)])
    func unconvertedPathsHandOverWholeBuffers(name: String, frames: Int) throws {
        let profile = try DeviceProfile.named(name)
        #expect(profile.bufferFrames == frames)
        #expect(profile.hardwareRate == profile.appRate)
        let sizes = try Self.callbackSizes(profile)
        #expect(sizes.count == Int(2 * Double(profile.hardwareRate) / Double(frames)))
        #expect(Set(sizes) == [frames], "\(name): \(Set(sizes))")
    }

    @Test func androidsLegacyPathVariesAroundTheConvertedBurst() throws {
        let profile = try DeviceProfile.named("aaudio-legacy")
        let sizes = try Self.callbackSizes(profile)
        // 192 · 44100 / 48000 = 176.4 samples per 4 ms callback.
        #expect(Set(sizes) == [176, 177])
        Self.expectRunningTotals(sizes, frames: 192, hardwareRate: 48_000, appRate: 44_100, profile.name)
    }

    @Test func iOS6DeliversEveryWholeSample() throws {
        let profile = try DeviceProfile.named("ios6")
        let sizes = try Self.callbackSizes(profile)
        #expect(Set(sizes) == [371, 372])
        Self.expectRunningTotals(sizes, frames: 1_024, hardwareRate: 44_100, appRate: 16_000, profile.name)
    }

    @Test func iOS5DeliversPowersOfTwo() throws {
        let sizes = try Self.callbackSizes(try DeviceProfile.named("ios5"))
        #expect(Array(sizes.prefix(4)) == [256, 256, 512, 256])
        #expect(sizes.allSatisfy { $0 >= 256 && $0 & ($0 - 1) == 0 })
    }

    /// A narrowband headset at 8 kHz converted to the app's 16 kHz: exactly twice the buffer.
    @Test func narrowbandHeadsetsDoubleIntoTheApp() throws {
        let profile = try DeviceProfile.named("hfp-narrowband")
        #expect(profile.hardwareRate == 8_000 && profile.appRate == 16_000)
        for frames in [256, 512, 1_024] {
            #expect(Set(try Self.callbackSizes(profile, bufferFrames: frames)) == [2 * frames])
        }
    }

    @Test func pipeWireTakesEveryPowerOfTwoQuantumFrom32To2048() throws {
        let profile = try DeviceProfile.named("pipewire")
        for exponent in 5...11 {
            #expect(Set(try Self.callbackSizes(profile, bufferFrames: 1 << exponent, seconds: 0.5)) == [1 << exponent])
        }
        for frames in [16, 1_000, 4_096] {
            #expect(throws: RealtimeError.bufferSizeNotAllowed(frames, allowed: "a power of two from 32 to 2048")) {
                try profile.hardware(bufferFrames: frames)
            }
        }
    }

    @Test(arguments: [64, 100, 480, 1_000, 4_096])
    func jackTakesAnyPeriod(frames: Int) throws {
        #expect(Set(try Self.callbackSizes(try DeviceProfile.named("jack"), bufferFrames: frames, seconds: 0.5)) == [frames])
    }

    @Test func webAudiosQuantumIsFixed() throws {
        #expect(throws: RealtimeError.self) { try DeviceProfile.named("webaudio").hardware(bufferFrames: 256) }
    }

    @Test func everyProfileNamesItsSourceAndAnUnknownOneIsRefused() throws {
        #expect(DeviceProfile.all.map(\.name) == ["ios5", "ios6", "aaudio", "aaudio-legacy", "webaudio", "pipewire", "jack", "wasapi",
                                                  "hfp-wideband", "hfp-narrowband"])
        for profile in DeviceProfile.all {
            #expect(!profile.source.isEmpty)
            #expect(profile.bufferSizes.allows(profile.bufferFrames), "\(profile.name)")
        }
        #expect(throws: RealtimeError.unknownDevice("ios7")) { try DeviceProfile.named("ios7") }
    }

    /// A route change keeps the profile's buffer rule: a 192-frame burst stays allowed at 44.1 kHz.
    @Test func routeChangesKeepTheProfilesBuffer() throws {
        let hardware = try DeviceProfile.named("aaudio").hardware()
        #expect(try hardware.rerouted(to: 44_100).bufferFrames == 192)
    }
}
