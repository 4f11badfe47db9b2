import Enhancement

/// Enhances mono audio at the model's rate with DFN3 and returns what the official real-time
/// runtime produces frame by frame — features from frame 0, the network's output of step `t`
/// applied to spectrum `t − 2`, the deep filter over `X_{t−4} … X_t`, three zero flush hops at
/// the end — with the real-time delay removed, so that the output is aligned with the input and
/// has its length.
///
/// The graphs run over chunks of `framesPerChunk` hops at once (large SGEMMs), carrying their
/// state from chunk to chunk, so memory stays bounded however long the input.
public final class OfflineEnhancer {
    public static let defaultFramesPerChunk = 100

    public let config: ModelConfig
    public let settings: EnhancementSettings
    private let engine: EnhancementEngine

    public convenience init(bundle: ModelBundle, settings: EnhancementSettings = .officialDefault,
                            framesPerChunk: Int = OfflineEnhancer.defaultFramesPerChunk) throws {
        try self.init(graphs: NetworkGraphs(bundle: bundle), config: bundle.config, settings: settings, framesPerChunk: framesPerChunk)
    }

    init(graphs: NetworkGraphs, config: ModelConfig, settings: EnhancementSettings, framesPerChunk: Int) throws {
        self.config = config
        self.settings = settings
        engine = try EnhancementEngine(graphs: graphs, config: config, settings: settings, framesPerChunk: framesPerChunk)
    }

    /// Enhances `samples` (mono, `config.sampleRate`); returns as many samples, aligned with the input.
    public func enhance(_ samples: [Float]) -> [Float] {
        DeepFilterNet3Enhancer(engine: engine).enhance(samples)
    }
}
