import Foundation
import Testing
import DeepFilter
import TestSupport

@Suite struct ModelConfigTests {
    static let configPath = RepositoryFiles.modelDirectory.appendingPathComponent("config.ini").path

    /// The values Python's configparser reads from the same file (Scripts/gen-model-config.py).
    static func pythonFacts() throws -> [String: Double] {
        let url = RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/generated/model-config/config.json")
        guard let data = try? Data(contentsOf: url) else {
            Issue.record("missing \(url.path): run Scripts/setup to generate the fixtures")
            return [:]
        }
        return try JSONDecoder().decode([String: Double].self, from: data)
    }

    @Test func readsTheBundleConfigAsConfigParserDoes() throws {
        let facts = try Self.pythonFacts()
        let config = try ModelConfig(contentsOfFile: Self.configPath)
        #expect(Double(config.sampleRate) == facts["sr"])
        #expect(Double(config.fftSize) == facts["fft_size"])
        #expect(Double(config.hopSize) == facts["hop_size"])
        #expect(Double(config.erbBandCount) == facts["nb_erb"])
        #expect(Double(config.deepFilterBinCount) == facts["nb_df"])
        #expect(Double(config.deepFilterOrder) == facts["df_order"])
        #expect(Double(config.deepFilterLookahead) == facts["df_lookahead"])
        #expect(Double(config.convolutionLookahead) == facts["conv_lookahead"])
        #expect(Double(config.normalizationTau) == facts["norm_tau"])
        #expect(Double(config.lsnrMin) == facts["lsnr_min"])
        #expect(Double(config.lsnrMax) == facts["lsnr_max"])
        #expect(Double(config.minimumBinsPerERBBand) == facts["min_nb_erb_freqs"])
    }

    /// dfn3-pipeline.md §2.5: N − R + max(Lc, Ldf)·R = 960 − 480 + 2·480.
    @Test func latencyIsThirtyMilliseconds() throws {
        let config = try ModelConfig(contentsOfFile: Self.configPath)
        #expect(config.latencySamples == 1440)
    }

    @Test func missingKeyNamesFileSectionAndKey() throws {
        let text = try String(contentsOfFile: Self.configPath, encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("df_order") }.joined(separator: "\n")
        let ini = try INIFile(parsing: text, source: "bundle/config.ini")
        #expect(throws: ModelBundleError.missingConfigKey(file: "bundle/config.ini", section: "df", key: "df_order")) {
            try ModelConfig(ini: ini, source: "bundle/config.ini")
        }
    }

    @Test func malformedLinesAreRejectedWithTheirLineNumber() {
        #expect(throws: ModelBundleError.malformedConfig(file: "c.ini", line: 2, reason: "expected 'key = value', got 'garbage'")) {
            try INIFile(parsing: "[df]\ngarbage\n", source: "c.ini")
        }
        #expect(throws: ModelBundleError.malformedConfig(file: "c.ini", line: 1, reason: "key outside any [section]")) {
            try INIFile(parsing: "sr = 48000\n", source: "c.ini")
        }
    }

    @Test func nonNumericValueIsRejected() throws {
        let text = try String(contentsOfFile: Self.configPath, encoding: .utf8).replacingOccurrences(of: "hop_size = 480", with: "hop_size = fast")
        let ini = try INIFile(parsing: text, source: "c.ini")
        #expect(throws: ModelBundleError.invalidConfigValue(file: "c.ini", section: "df", key: "hop_size", value: "fast", expected: "an integer ≥ 1")) {
            try ModelConfig(ini: ini, source: "c.ini")
        }
    }

    @Test func missingBundleFileIsNamed() {
        #expect(throws: ModelBundleError.missingFile(path: "/nonexistent/config.ini")) {
            try ModelConfig(contentsOfFile: "/nonexistent/config.ini")
        }
    }
}
