/// One benchmark `dfbench` can run; add a scenario in its own file and list it in main.swift.
protocol BenchmarkScenario {
    /// The word that selects this scenario on the command line.
    var name: String { get }
    /// One line for the scenario list.
    var summary: String { get }
    /// Measures and prints results; `arguments` are the words after the scenario name.
    func run(arguments: [String]) throws
}

/// A mistake in how a scenario was called or what it needs.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
