import Corpus

/// The metrics `--metrics LIST` asks a corpus run to compute per file.
struct MetricsSelection {
    let names: [String]

    init(names: [String]) throws {
        if let unknown = names.first {
            throw CommandLineError("--metrics: no metric '\(unknown)' is available in this build")
        }
        self.names = names
    }

    /// The function the runner calls per file, nil when no metric is asked for.
    var compute: CorpusRunner.Metrics? { nil }
}
