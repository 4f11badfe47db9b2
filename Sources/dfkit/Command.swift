/// A `dfkit` subcommand: parses its own arguments, validates them, calls a library API, prints.
protocol Command {
    /// The word after `dfkit` that selects this command.
    static var name: String { get }
    /// One line for `dfkit --help`.
    static var summary: String { get }
    /// The full text of `dfkit NAME --help`.
    static var help: String { get }

    init(arguments: inout ArgumentList) throws
    func run() throws
}
