import DSP
import Foundation
import Testing
import TestSupport

/// `Scripts/install-plugins` puts a working plugin set under a prefix: the hosts find the plugins
/// on LADSPA_PATH/LV2_PATH and the plugins find their models beside them (no DFKIT_MODEL_DIR, the
/// copies far from the repository), and the shared object needs no Swift runtime library.
@Suite struct PluginInstallTests {
    @Test func installedPluginsRunFromTheirPrefix() throws {
        let fixtures = try HostFixtures.get()
        let prefix = fixtures.scratch("prefix")
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        let install = try ChildProcess.run(URL(fileURLWithPath: RepositoryFiles.root.appendingPathComponent("Scripts/install-plugins").path), ["--no-build", prefix])
        try #require(install.succeeded, "install-plugins: \(install.standardError)")
        for file in ["lib/ladspa/libdfkit-ladspa.so", "lib/lv2/dfkit.lv2/dfkit.so", "lib/lv2/dfkit.lv2/manifest.ttl", "lib/lv2/dfkit.lv2/dfkit.ttl",
                     "share/deepfilterkit/models/DeepFilterNet3/enc.onnx", "share/deepfilterkit/models/GTCRN"] {
            #expect(FileManager.default.fileExists(atPath: "\(prefix)/\(file)"), "\(file) not installed")
        }
        let dynamic = try ChildProcess.run(try Subprocess.tool("readelf", package: "binutils"), ["-d", "\(prefix)/lib/ladspa/libdfkit-ladspa.so"])
        let needed = dynamic.standardOutput.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(!needed.isEmpty && !needed.contains { $0.contains("swift") || $0.contains("Foundation") }, "\(needed)")

        let environment: [String: String?] = ["DFKIT_MODEL_DIR": nil, "LADSPA_PATH": "\(prefix)/lib/ladspa", "LV2_PATH": "\(prefix)/lib/lv2"]
        let clip = fixtures.clip("speech48")
        let soxOutput = fixtures.scratch("installed-sox.wav"), lv2Output = fixtures.scratch("installed-lv2.wav")
        let sox = try ChildProcess.run(try Subprocess.tool("sox", package: "sox"), [clip.wav, "-e", "floating-point", "-b", "32", soxOutput,
                                                                                  "ladspa", "libdfkit-ladspa", "dfkit_dfn3_mono"], environment: environment)
        try #require(sox.succeeded, "sox: \(sox.standardError)")
        let lv2 = try ChildProcess.run(try Subprocess.tool("lv2apply", package: "lilv-utils"), ["-i", clip.wav, "-o", lv2Output, PluginCase.gtcrnMono48.uri],
                                     environment: environment)
        try #require(lv2.succeeded, "lv2apply: \(lv2.standardError)")
        let soxDifference = HostFixtures.largestDifference(try AudioFileReader.read(path: soxOutput).channels, shiftedBy: try PluginCase.dfn3Mono.expectedLatency(),
                                                           from: try fixtures.reference("speech48", model: "dfn3"))
        #expect(soxDifference <= PluginToolTests.floatTolerance)
        let lv2Difference = HostFixtures.largestDifference(try AudioFileReader.read(path: lv2Output).channels, shiftedBy: try PluginCase.gtcrnMono48.expectedLatency(),
                                                           from: try fixtures.reference("speech48", model: "gtcrn"))
        #expect(lv2Difference <= PluginToolTests.floatTolerance)
    }
}
