import Foundation
import Testing

/// `dfkit simulate --device`: the profile's callback sizes read back from the JSON, the sweep over
/// profiles, the listing and the refusals. References are the profiles' numbers (192-frame AAudio
/// bursts, PipeWire's power-of-two quanta) and the closed form floor(k·B·app/hw).
struct SimulateDeviceTests {
    static func dfkit(_ arguments: [String]) throws -> DFKitProcess.Output {
        let output = try DFKitProcess.run(arguments)
        try #require(output.exited, "dfkit \(arguments) died of signal \(output.status)")
        return output
    }

    @Test func aDeviceSetsTheWholeCapturePath() throws {
        let outcome = try Self.dfkit(["simulate", "--device", "aaudio-legacy", "--seconds", "1", "--json"])
        try #require(outcome.status == 0, "\(outcome.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        #expect(object["device"] as? String == "aaudio-legacy")
        let callbacks = try #require(object["callbacks"] as? [[String: Any]])
        var total = 0
        for (k, callback) in callbacks.enumerated() {
            #expect((callback["hw_frames"] as? NSNumber)?.intValue == 192)
            total += (callback["app_samples"] as? NSNumber)?.intValue ?? -1
            #expect(total == (k + 1) * 192 * 44_100 / 48_000)
        }
        #expect(callbacks.count == 250)
    }

    @Test func theBufferCanBeChosenWithinTheProfile() throws {
        let outcome = try Self.dfkit(["simulate", "--device", "pipewire", "--hw-buffer", "64", "--seconds", "0.5", "--json"])
        try #require(outcome.status == 0, "\(outcome.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        let sizes = Set(try #require(object["callbacks"] as? [[String: Any]]).compactMap { ($0["app_samples"] as? NSNumber)?.intValue })
        #expect(sizes == [64])
        let refused = try Self.dfkit(["simulate", "--device", "pipewire", "--hw-buffer", "1000"])
        #expect(refused.status == 1 && refused.standardError.contains("a power of two from 32 to 2048"), "\(refused.standardError)")
    }

    @Test func theSweepRunsEveryBufferOfEachProfile() throws {
        let outcome = try Self.dfkit(["simulate", "--sweep", "--device", "pipewire,webaudio", "--seconds", "0.5"])
        try #require(outcome.status == 0, "\(outcome.standardError)")
        let rows = outcome.standardOutput.split(separator: "\n").dropFirst().map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(rows.map { "\($0[0]) \($0[2])" } == ["pipewire 32", "pipewire 64", "pipewire 128", "pipewire 256", "pipewire 512",
                                                     "pipewire 1024", "pipewire 2048", "webaudio 128"])
        // The callback sizes column: the buffer itself, nothing converted.
        #expect(rows.allSatisfy { $0[5] == $0[2] })
    }

    @Test func theListingGivesEveryProfileAndItsSource() throws {
        let outcome = try Self.dfkit(["simulate", "--list-devices"])
        try #require(outcome.status == 0)
        for name in ["ios5", "ios6", "aaudio", "aaudio-legacy", "webaudio", "pipewire", "jack", "wasapi", "hfp-wideband", "hfp-narrowband"] {
            #expect(outcome.standardOutput.contains("\n\(name): "), "no source line for \(name)")
        }
    }

    @Test func unknownDevicesAreRefusedByName() throws {
        let outcome = try Self.dfkit(["simulate", "--device", "ios7"])
        #expect(outcome.status == 1 && outcome.standardError.contains("no device profile 'ios7'"), "\(outcome.standardError)")
        let two = try Self.dfkit(["simulate", "--device", "ios5,ios6"])
        #expect(two.status == 1 && two.standardError.contains("one profile without --sweep"), "\(two.standardError)")
    }
}
