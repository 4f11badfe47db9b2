/// One loaded speech-enhancement model: what it is, and enhancers made from it. Model modules
/// conform to this; commands, the simulator and the hosts choose a model by name or folder
/// (`ModelCatalog`) and reach it only through here.
public protocol EnhancerModel: AnyObject, Sendable {
    /// The name commands take (`--model NAME`).
    var name: String { get }
    /// What it is, in a few words, for listings.
    var summary: String { get }
    /// The folder it was loaded from.
    var directory: String { get }
    var sampleRate: Int { get }
    var hopSize: Int { get }
    /// The latency of its streaming enhancer, in samples at `sampleRate`.
    var latency: Int { get }
    var parameterCount: Int { get }
    /// The licence, in a few words (`MIT`, `MIT OR Apache-2.0`).
    var licence: String { get }
    /// The settings it takes (see `EnhancerOption`), in the order help texts and plugins list them.
    var options: [EnhancerOption] { get }
    /// An enhancer for real time: one hop per call, allocation-free.
    func makeStreamingEnhancer(options: EnhancerOptions) throws -> any StreamingEnhancer
    /// The fastest enhancer for whole files; its output equals the streaming one's, aligned.
    func makeOfflineEnhancer(options: EnhancerOptions) throws -> any StreamingEnhancer
}

/// A kind of model: how to recognise its folder and load it.
public protocol EnhancerModelKind: Sendable {
    /// The name commands take.
    var name: String { get }
    /// The folder name it is installed under (in `Models/`, `DFKIT_MODEL_DIR` or the share directory).
    var folderName: String { get }
    /// The files a folder of this kind holds.
    var requiredFiles: [String] { get }
    /// The settings its models take, known without loading one (so a command line can be read first).
    var options: [EnhancerOption] { get }
    /// What it is, in a few words (as its models' `summary`), known without loading one.
    var summary: String { get }
    /// Its models' licence, known without loading one.
    var licence: String { get }
    func load(directory: String) throws -> any EnhancerModel
}
