import Enhancement
import Foundation
import ONNX

/// DFN3's folder (`enc.onnx`, `erb_dec.onnx`, `df_dec.onnx`, `config.ini`), as the model catalog
/// recognises and loads it.
public struct DeepFilterNet3Kind: EnhancerModelKind {
    public static let name = "dfn3"

    public init() {}

    public var name: String { Self.name }
    public var folderName: String { "DeepFilterNet3" }
    public var options: [EnhancerOption] { Self.options }
    public var summary: String { Self.summary }
    public var licence: String { Self.licence }
    static let summary = "DeepFilterNet3, deep filtering on ERB features (Schröter et al.)"
    static let licence = "MIT OR Apache-2.0"
    public var requiredFiles: [String] {
        [ModelBundle.graphFileNames.encoder, ModelBundle.graphFileNames.erbDecoder, ModelBundle.graphFileNames.dfDecoder,
         ModelBundle.configFileName]
    }

    public func load(directory: String) throws -> any EnhancerModel {
        try DeepFilterNet3Model(bundle: ModelBundle(directory: directory))
    }
}

extension DeepFilterNet3Kind {
    /// The official runtime's settings: attenuation limit, post-filter β and the local-SNR gating
    /// thresholds (manifest keys as libDF's command line calls them).
    public static let attenuationLimit = EnhancerOption(
        name: "atten-lim", key: "atten_lim_db", kind: .number(-.infinity ... .infinity), defaultValue: .number(100), placeholder: "DB",
        help: "limit the attenuation to DB decibels (≥ 100: off, the default; < 0.01: pass the input through)")
    public static let postFilterBeta = EnhancerOption(
        name: "pf-beta", key: "pf_beta", kind: .number(0 ... .infinity), defaultValue: .number(0), placeholder: "B",
        help: "enable the post-filter with strength B (e.g. 0.02; default 0: off)",
        port: EnhancerOption.Port(name: "Post-filter beta", range: 0...0.5))
    public static let thresholds = EnhancerOption(
        name: "thresholds", key: "thresholds", kind: .choice(["default", "upstream"]), defaultValue: .choice("default"), placeholder: "SET",
        help: "lsnr gating: 'default' (−15, 35, 35) as libDF's C API, both decoders on every frame; 'upstream' (−10, 30, 20) as RuntimeParams::default")
    public static let options = [attenuationLimit, postFilterBeta, thresholds]
}

/// DeepFilterNet3 (48 kHz, hop 480 = 10 ms) behind the seam; its options are the official
/// runtime's: attenuation limit, post-filter β and the local-SNR gating thresholds.
public final class DeepFilterNet3Model: EnhancerModel, @unchecked Sendable {
    public let bundle: ModelBundle
    let graphs: NetworkGraphs
    public let parameterCount: Int

    public init(bundle: ModelBundle) throws {
        self.bundle = bundle
        graphs = try NetworkGraphs(bundle: bundle)
        parameterCount = try [bundle.encoder, bundle.erbDecoder, bundle.dfDecoder].map { try ModelSummary($0).parameterCount }.reduce(0, +)
    }

    public var name: String { DeepFilterNet3Kind.name }
    public var summary: String { DeepFilterNet3Kind.summary }
    public var directory: String { bundle.directory }
    public var sampleRate: Int { bundle.config.sampleRate }
    public var hopSize: Int { bundle.config.hopSize }
    public var latency: Int { bundle.config.latencySamples }
    public var licence: String { DeepFilterNet3Kind.licence }
    public var options: [EnhancerOption] { DeepFilterNet3Kind.options }

    /// The official runtime's settings with the given options applied (checked against `options`).
    public static func settings(_ options: EnhancerOptions) throws -> EnhancementSettings {
        try options.check(against: DeepFilterNet3Kind.options, modelName: DeepFilterNet3Kind.name)
        var settings = EnhancementSettings.officialDefault
        if options.value(of: DeepFilterNet3Kind.thresholds) == .choice("upstream") {
            settings.gating = EnhancementSettings.upstreamDefault.gating
        }
        if let limit = options[DeepFilterNet3Kind.attenuationLimit.name]?.number { settings.attenuationLimitDecibels = Float(limit) }
        if let beta = options[DeepFilterNet3Kind.postFilterBeta.name]?.number { settings.postFilterBeta = Float(beta) }
        return settings
    }

    public func makeStreamingEnhancer(options: EnhancerOptions) throws -> any StreamingEnhancer {
        try options.check(against: self)
        return DeepFilterNet3Enhancer(engine: try EnhancementEngine(graphs: graphs, config: bundle.config, settings: Self.settings(options)))
    }

    public func makeOfflineEnhancer(options: EnhancerOptions) throws -> any StreamingEnhancer {
        try options.check(against: self)
        return DeepFilterNet3Enhancer(engine: try EnhancementEngine(
            graphs: graphs, config: bundle.config, settings: Self.settings(options), framesPerChunk: OfflineEnhancer.defaultFramesPerChunk))
    }
}
