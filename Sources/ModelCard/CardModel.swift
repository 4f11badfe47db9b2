import Enhancement
import Inference

/// A model described by a card (`card.json` beside its ONNX graphs), behind the seam like any
/// other: its card checked against its graphs when loaded, its enhancers made from the card.
/// Files are enhanced by the same stream, which runs the card's arrangement frame by frame, or —
/// for a card whose one graph runs along a time axis — in chunks of `framesPerChunk` frames.
public final class CardModel: EnhancerModel, @unchecked Sendable {
    public let card: ModelCard
    public let directory: String
    let graphs: [CardCheck.LoadedGraph]
    public let parameterCount: Int

    /// Loads the card in `directory` and its graphs. - Throws: `CardError` listing every problem.
    public init(directory: String) throws {
        let check = try CardCheck(directory: directory)
        graphs = try check.runnable()
        card = check.card
        self.directory = directory
        parameterCount = graphs.map(\.parameterCount).reduce(0, +)
        // Every product on the caller's thread (real time allocates nothing then, and the sums keep
        // one order), and OpenBLAS's small products at full speed from the first frame.
        GEMMKernel.runSingleThreaded()
        GEMMKernel.warmUp()
    }

    public var name: String { card.name }
    public var summary: String { card.summary }
    public var sampleRate: Int { card.sampleRate }
    public var hopSize: Int { card.framing.hop }
    public var latency: Int { card.framing.latency }
    public var licence: String { card.licence }
    /// A card declares no settings of its own.
    public var options: [EnhancerOption] { [] }

    public func makeStreamingEnhancer(options: EnhancerOptions) throws -> any StreamingEnhancer {
        try options.check(against: self)
        return try CardEnhancer(card: card, graphs: graphs)
    }

    /// Frames per graph call for files, where the card allows chunks.
    public static let framesPerChunk = 100

    public func makeOfflineEnhancer(options: EnhancerOptions) throws -> any StreamingEnhancer {
        try options.check(against: self)
        return try CardEnhancer(card: card, graphs: graphs, framesPerChunk: CardEnhancer.chunkable(card) ? Self.framesPerChunk : nil)
    }
}
