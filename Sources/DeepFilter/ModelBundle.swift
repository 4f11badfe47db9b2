import Foundation
import ONNX

/// A DeepFilterNet model bundle: a directory with the encoder, the two decoders and `config.ini`.
public struct ModelBundle: Sendable {
    public static let graphFileNames = (encoder: "enc.onnx", erbDecoder: "erb_dec.onnx", dfDecoder: "df_dec.onnx")
    public static let configFileName = "config.ini"

    public let directory: String
    public let config: ModelConfig
    public let encoder: ModelProto
    public let erbDecoder: ModelProto
    public let dfDecoder: ModelProto

    /// Loads and checks every file of the bundle in `directory`; errors name the file at fault.
    public init(directory: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ModelBundleError.missingFile(path: directory)
        }
        func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
        func graph(_ name: String) throws -> ModelProto {
            let file = path(name)
            guard FileManager.default.fileExists(atPath: file) else { throw ModelBundleError.missingFile(path: file) }
            return try ModelProto(contentsOfFile: file)
        }
        self.directory = directory
        config = try ModelConfig(contentsOfFile: path(Self.configFileName))
        encoder = try graph(Self.graphFileNames.encoder)
        erbDecoder = try graph(Self.graphFileNames.erbDecoder)
        dfDecoder = try graph(Self.graphFileNames.dfDecoder)
        try Self.checkInterface(encoder, file: path(Self.graphFileNames.encoder),
                                inputs: ["feat_erb", "feat_spec"], outputs: ["e0", "e1", "e2", "e3", "emb", "c0", "lsnr"])
        try Self.checkInterface(erbDecoder, file: path(Self.graphFileNames.erbDecoder),
                                inputs: ["emb", "e3", "e2", "e1", "e0"], outputs: ["m"])
        try Self.checkInterface(dfDecoder, file: path(Self.graphFileNames.dfDecoder),
                                inputs: ["emb", "c0"], outputs: ["coefs"])
    }

    private static func checkInterface(_ model: ModelProto, file: String, inputs: [String], outputs: [String]) throws {
        let initializers = Set(model.graph.initializers.map(\.name))
        let graphInputs = Set(model.graph.inputs.map(\.name).filter { !initializers.contains($0) })
        let graphOutputs = Set(model.graph.outputs.map(\.name))
        if let missing = inputs.first(where: { !graphInputs.contains($0) }) {
            throw ModelBundleError.graphInterface(file: file, reason: "graph has no input '\(missing)' (a DeepFilterNet3 graph needs \(inputs.joined(separator: ", ")))")
        }
        if let missing = outputs.first(where: { !graphOutputs.contains($0) }) {
            throw ModelBundleError.graphInterface(file: file, reason: "graph has no output '\(missing)' (a DeepFilterNet3 graph gives \(outputs.joined(separator: ", ")))")
        }
    }
}
