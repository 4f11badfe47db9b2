import Enhancement
import JSONDocument

/// One file of a corpus: where it is read from and written to, with the model and options it is
/// enhanced with and, optionally, the clean reference its metrics are computed against.
public struct CorpusItem: Sendable, Equatable {
    public let id: String
    public let input: String
    public let output: String
    public let reference: String?
    /// A model name or folder (`ModelCatalog.model`).
    public let model: String
    public let options: EnhancerOptions
    /// A manifest entry's extra fields, carried into its record.
    public let meta: [String: JSONValue]

    public init(id: String, input: String, output: String, reference: String? = nil, model: String, options: EnhancerOptions,
                meta: [String: JSONValue] = [:]) {
        self.id = id
        self.input = input
        self.output = output
        self.reference = reference
        self.model = model
        self.options = options
        self.meta = meta
    }
}
