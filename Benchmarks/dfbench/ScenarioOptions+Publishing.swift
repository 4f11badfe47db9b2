import Foundation

extension ScenarioOptions {
    /// Prints a scenario's `markdown` table and writes it to `--markdown`, and `report` as sorted,
    /// indented JSON to `--json`, where those flags were given: one way of publishing for every
    /// scenario, each file written whole (to a temporary file, then renamed) so that an interrupted
    /// run never leaves half a result in `Benchmarks/results`.
    func publish(_ report: some Encodable, markdown: String) throws {
        print(markdown)
        if let path = string("--json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(report).write(to: URL(fileURLWithPath: path), options: .atomic)
        }
        if let path = string("--markdown") { try markdown.write(toFile: path, atomically: true, encoding: .utf8) }
    }
}
