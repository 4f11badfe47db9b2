/// One thing wrong with a card, as one line: the file, the field (a path such as
/// `graphs[1].inputs.input_5.state`), what was expected there and what was found.
public struct CardProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    /// Empty for the file as a whole.
    public let field: String
    public let expected: String
    public let found: String

    public init(file: String, field: String, expected: String, found: String) {
        self.file = file
        self.field = field
        self.expected = expected
        self.found = found
    }

    public var description: String {
        "\(file): \(field.isEmpty ? "" : field + ": ")expected \(expected), found \(found)"
    }
}

/// Every problem of a card, each on its own line; thrown when a card cannot be run.
public struct CardError: Error, Sendable, Equatable, CustomStringConvertible {
    public let problems: [CardProblem]

    public init(problems: [CardProblem]) {
        self.problems = problems
    }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
