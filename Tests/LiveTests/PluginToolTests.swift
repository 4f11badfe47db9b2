import DSP
import Foundation
import Testing
import TestSupport

/// The plugins in the hosts Debian packages: sox's ladspa effect (its --buffer sets the block
/// size run() gets: checked with a probe plugin while writing this), applyplugin (ladspa-sdk;
/// fixed 2048-frame blocks, 16-bit output), lv2apply (lilv-utils; one frame per run()), lv2bench
/// (-b BLOCK over silence), lv2info and analyseplugin. Outputs are held to
/// `dfkit enhance --streaming --float` of the same clip, shifted by the latency the plugin reports
/// (1919 for DFN3 at 48 kHz, 511 for GTCRN at 16 kHz, 2307 for GTCRN at 48 kHz: PluginCase).
@Suite struct PluginToolTests {
    /// sox hands the plugin floats made from its own 32-bit integer samples and back: the
    /// round trip costs up to 2^-25 relative (3e-8 measured), far inside the 1e-6.
    static let floatTolerance = Float(Tolerance.reordered.absolute)
    /// applyplugin writes 16-bit samples: one least significant bit, 1/32768.
    static let pcm16Tolerance: Float = 1.0 / 32_768

    static func read(_ path: String) throws -> [[Float]] { try AudioFileReader.read(path: path).channels }

    @Test(arguments: [PluginCase.dfn3Mono, .gtcrnMono, .gtcrnMono48], [64, 200, 256, 480, 512, 1024, 2048, 8192])
    func soxAtEveryBlockSize(plugin: PluginCase, buffer: Int) throws {
        let fixtures = try HostFixtures.get()
        let output = fixtures.scratch("sox.wav")
        defer { try? FileManager.default.removeItem(atPath: output) }
        // sox takes every control from its port's default when none is given (the latency port too).
        let result = try ChildProcess.run(try Subprocess.tool("sox", package: "sox"),
                                        ["--buffer", "\(buffer)", fixtures.clip(plugin.clip).wav, "-e", "floating-point", "-b", "32", output,
                                         "ladspa", "libdfkit-ladspa", plugin.label], environment: fixtures.environment)
        try #require(result.succeeded, "sox: \(result.standardError)")
        let difference = HostFixtures.largestDifference(try Self.read(output), shiftedBy: try plugin.expectedLatency(),
                                                        from: try fixtures.reference(plugin.clip, model: plugin.model))
        #expect(difference <= Self.floatTolerance, "sox --buffer \(buffer), \(plugin.label): \(difference)")
    }

    @Test(arguments: [(PluginCase.dfn3Mono, "speech48-pcm16", ["100", "0", "1"]), (.dfn3Stereo, "stereo48-pcm16", ["100", "0", "1"]),
                      (.gtcrnMono48, "speech48-pcm16", ["100", "1"])])
    func applyplugin(plugin: PluginCase, clip: String, controls: [String]) throws {
        let fixtures = try HostFixtures.get()
        let output = fixtures.scratch("applyplugin.wav")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let result = try ChildProcess.run(try Subprocess.tool("applyplugin", package: "ladspa-sdk"),
                                        [fixtures.clip(clip).wav, output, fixtures.plugin.path, plugin.label] + controls,
                                        environment: fixtures.environment)
        try #require(result.succeeded, "applyplugin: \(result.standardError)")
        let difference = HostFixtures.largestDifference(try Self.read(output), shiftedBy: try plugin.expectedLatency(),
                                                        from: try fixtures.reference(clip, model: plugin.model))
        #expect(difference <= Self.pcm16Tolerance, "applyplugin \(plugin.label): \(difference * 32_768) LSB")
    }

    @Test(arguments: [PluginCase.dfn3Mono, .dfn3Stereo, .gtcrnMono, .gtcrnMono48])
    func lv2apply(plugin: PluginCase) throws {
        let fixtures = try HostFixtures.get()
        let output = fixtures.scratch("lv2apply.wav")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let result = try ChildProcess.run(try Subprocess.tool("lv2apply", package: "lilv-utils"),
                                        ["-i", fixtures.clip(plugin.clip).wav, "-o", output, plugin.uri], environment: fixtures.environment)
        try #require(result.succeeded, "lv2apply: \(result.standardError)")
        let difference = HostFixtures.largestDifference(try Self.read(output), shiftedBy: try plugin.expectedLatency(),
                                                        from: try fixtures.reference(plugin.clip, model: plugin.model))
        #expect(difference <= Self.floatTolerance, "lv2apply \(plugin.label): \(difference)")
    }

    /// lv2bench instantiates at 48 kHz and runs 2^19 frames of silence in blocks of -b; it prints
    /// the seconds it took and the URI. Every block size must run to the end.
    @Test(arguments: [PluginCase.dfn3Mono, .dfn3Stereo, .gtcrnMono48], [1, 64, 200, 256, 480, 512, 1024, 2048])
    func lv2bench(plugin: PluginCase, block: Int) throws {
        let fixtures = try HostFixtures.get()
        let frames = block == 1 ? 48_000 : 1 << 19
        let result = try ChildProcess.run(try Subprocess.tool("lv2bench", package: "lilv-utils"),
                                        ["-b", "\(block)", "-n", "\(frames)", plugin.uri], environment: fixtures.environment)
        try #require(result.succeeded, "lv2bench -b \(block): \(result.standardError)")
        let fields = result.standardOutput.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(fields.count == 2 && fields[1] == plugin.uri, "lv2bench printed '\(result.standardOutput)'")
        let seconds = Double(fields.first ?? "") ?? -1
        #expect(seconds > 0 && seconds < Double(frames) / 48_000, "lv2bench -b \(block): \(seconds) s for \(Double(frames) / 48_000) s of audio")
    }

    /// lilv reads the bundle as hosts do: each plugin reports its latency through the latency port,
    /// and the .ttl's ports are the LADSPA descriptor's, in the same order with the same names.
    @Test(arguments: [PluginCase.dfn3Mono, .dfn3Stereo, .gtcrnMono])
    func theBundleDescribesTheSamePortsAsTheDescriptor(plugin: PluginCase) throws {
        let fixtures = try HostFixtures.get()
        let info = try ChildProcess.run(try Subprocess.tool("lv2info", package: "lilv-utils"), [plugin.uri], environment: fixtures.environment)
        try #require(info.succeeded, "lv2info: \(info.standardError)")
        let latencyIndex = plugin.lv2Ports.firstIndex(of: "l").map { plugin.lv2Ports.distance(from: plugin.lv2Ports.startIndex, to: $0) }!
        #expect(info.standardOutput.contains("Has latency:       yes, reported by port \(latencyIndex)"), "\(info.standardOutput)")
        let lv2Names = info.standardOutput.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("Name:") && !trimmed.contains("DeepFilterKit") ? String(trimmed.dropFirst(5)).trimmingCharacters(in: .whitespaces) : nil
        }
        let analysis = try ChildProcess.run(try Subprocess.tool("analyseplugin", package: "ladspa-sdk"), [fixtures.plugin.path, plugin.label])
        try #require(analysis.succeeded, "analyseplugin: \(analysis.standardError)")
        let ladspaNames = analysis.standardOutput.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            .filter { !$0.hasPrefix("DeepFilterKit") && $0 != plugin.label && !$0.hasPrefix("models:") }
        #expect(lv2Names == ladspaNames, "LV2 \(lv2Names) against LADSPA \(ladspaNames)")
        #expect(analysis.standardOutput.contains("\"latency\" output, control"))
        #expect(analysis.standardOutput.contains("Environment: Normal or Hard Real-Time"))
    }
}
