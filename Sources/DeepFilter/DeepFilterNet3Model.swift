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
    public var requiredFiles: [String] {
        [ModelBundle.graphFileNames.encoder, ModelBundle.graphFileNames.erbDecoder, ModelBundle.graphFileNames.dfDecoder,
         ModelBundle.configFileName]
    }

    public func load(directory: String) throws -> any EnhancerModel {
        try DeepFilterNet3Model(bundle: ModelBundle(directory: directory))
    }
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
    public var summary: String { "DeepFilterNet3, deep filtering on ERB features (Schröter et al.)" }
    public var directory: String { bundle.directory }
    public var sampleRate: Int { bundle.config.sampleRate }
    public var hopSize: Int { bundle.config.hopSize }
    public var latency: Int { bundle.config.latencySamples }
    public var licence: String { "MIT OR Apache-2.0" }
    public var supportedOptions: [EnhancerOption] { [.attenuationLimit, .postFilterBeta, .thresholds] }

    /// The official runtime's settings with the given options applied.
    public static func settings(_ options: EnhancerOptions) throws -> EnhancementSettings {
        var settings = EnhancementSettings.officialDefault
        switch options.thresholds {
        case nil, "default": break
        case "upstream": settings.gating = EnhancementSettings.upstreamDefault.gating
        case let other?: throw EnhancerError.unsupported("--thresholds must be 'default' or 'upstream', got '\(other)'")
        }
        if let limit = options.attenuationLimitDecibels { settings.attenuationLimitDecibels = limit }
        if let beta = options.postFilterBeta { settings.postFilterBeta = beta }
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
