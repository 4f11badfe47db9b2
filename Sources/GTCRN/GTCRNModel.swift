import Enhancement
import Foundation
import Inference
import ONNX

/// GTCRN's folder (`gtcrn_simple.onnx`, the official streaming export), as the model catalog
/// recognises and loads it.
public struct GTCRNKind: EnhancerModelKind {
    public static let name = "gtcrn"
    public static let fileName = "gtcrn_simple.onnx"

    public init() {}

    public var name: String { Self.name }
    public var folderName: String { "GTCRN" }
    public var requiredFiles: [String] { [Self.fileName] }
    public var options: [EnhancerOption] { [] }

    public func load(directory: String) throws -> any EnhancerModel {
        try GTCRNModel(directory: directory)
    }
}

/// GTCRN (Rong et al., 16 kHz, hop 256 = 16 ms; 48 K parameters) behind the seam, run as its
/// official streaming script arranges it: one STFT frame per network call with its three caches
/// carried (`GTCRNEnhancer`).
public final class GTCRNModel: EnhancerModel, @unchecked Sendable {
    static let fftSize = 512
    static let hop = 256
    /// The three caches the export takes and returns: cache input, its update output.
    static let caches = ["conv_cache", "tra_cache", "inter_cache"]

    public let directory: String
    let graph: Graph
    public let parameterCount: Int

    /// Loads and checks the export in `directory`; errors name the file.
    public init(directory: String) throws {
        let path = (directory as NSString).appendingPathComponent(GTCRNKind.fileName)
        guard FileManager.default.fileExists(atPath: path) else {
            throw EnhancerError.modelNotFound("\(path): missing (GTCRN's folder holds \(GTCRNKind.fileName); run Scripts/fetch-model)")
        }
        let model = try ModelProto(contentsOfFile: path)
        parameterCount = try ModelSummary(model).parameterCount
        let graph = try Graph(model: model)
        let inputs = ["mix"] + Self.caches, outputs = ["enh"] + Self.caches.map { $0 + "_out" }
        if let missing = inputs.first(where: { !graph.inputNames.contains($0) }) ?? outputs.first(where: { !graph.outputNames.contains($0) }) {
            throw EnhancerError.unsupported("\(path): the graph has no value '\(missing)' (GTCRN's streaming export takes \(inputs.joined(separator: ", ")) and gives \(outputs.joined(separator: ", ")))")
        }
        self.graph = graph
        self.directory = directory
    }

    public var name: String { GTCRNKind.name }
    public var summary: String { "GTCRN, grouped temporal convolutional recurrent network (Rong et al.), streaming export" }
    public var sampleRate: Int { 16_000 }
    public var hopSize: Int { Self.hop }
    public var latency: Int { Self.hop }
    public var licence: String { "MIT" }
    public var options: [EnhancerOption] { [] }

    public func makeStreamingEnhancer(options: EnhancerOptions) throws -> any StreamingEnhancer {
        try options.check(against: self)
        return try GTCRNEnhancer(graph: graph)
    }

    /// The streaming arrangement is the offline one (the official script runs frames one by one),
    /// so files take the same enhancer.
    public func makeOfflineEnhancer(options: EnhancerOptions) throws -> any StreamingEnhancer {
        try makeStreamingEnhancer(options: options)
    }
}
