import Enhancement
import ModelCatalog

extension EnhancerOptions {
    /// The options of every model in the catalog that are on the command line (`--atten-lim DB`, …),
    /// each value checked against its option here, and against the chosen model when it is built.
    init(parsing arguments: inout ArgumentList) throws {
        self.init()
        for option in ModelCatalog.options {
            guard let text = try arguments.value(option.flag) else { continue }
            do {
                self[option.name] = try option.value(parsing: text)
            } catch {
                throw CommandLineError("\(error)")
            }
        }
    }

    /// Help lines for the options of every model, grouped by the models that take them.
    static var helpText: String {
        var lines: [String] = []
        for kind in ModelCatalog.kinds where !kind.options.isEmpty {
            lines.append("  \(kind.name) only:")
            for option in kind.options {
                lines += HelpText.entry("\(option.flag) \(option.placeholder)", option.help)
            }
        }
        return lines.joined(separator: "\n")
    }
}
