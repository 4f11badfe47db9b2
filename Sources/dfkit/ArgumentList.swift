/// The command line after the subcommand name, consumed option by option.
struct ArgumentList {
    private var remaining: [String]

    init(_ arguments: [String]) {
        remaining = arguments
    }

    var isEmpty: Bool { remaining.isEmpty }

    /// Removes `--name` and returns whether it was present.
    mutating func flag(_ name: String) -> Bool {
        guard let index = remaining.firstIndex(of: name) else { return false }
        remaining.remove(at: index)
        return true
    }

    /// Removes every `--name VALUE` (or `--name=VALUE`) and returns the values in order.
    mutating func values(_ name: String) throws -> [String] {
        var found: [String] = []
        var index = 0
        while index < remaining.count {
            let argument = remaining[index]
            if argument == name {
                guard index + 1 < remaining.count else {
                    throw CommandLineError("option \(name) needs a value")
                }
                found.append(remaining[index + 1])
                remaining.removeSubrange(index...index + 1)
            } else if argument.hasPrefix(name + "=") {
                found.append(String(argument.dropFirst(name.count + 1)))
                remaining.remove(at: index)
            } else {
                index += 1
            }
        }
        return found
    }

    /// Removes `--name VALUE` and returns the value; giving the option twice is an error.
    mutating func value(_ name: String) throws -> String? {
        let found = try values(name)
        guard found.count <= 1 else { throw CommandLineError("option \(name) given more than once") }
        return found.first
    }

    /// Removes `--name NUMBER` and returns the number.
    mutating func number<T: LosslessStringConvertible>(_ name: String, as type: T.Type = T.self) throws -> T? {
        guard let text = try value(name) else { return nil }
        guard let number = T(text) else { throw CommandLineError("option \(name) expects a number, got '\(text)'") }
        return number
    }

    /// Removes and returns the remaining positional arguments; any leftover `--option` is an error.
    mutating func positionals() throws -> [String] {
        if let unknown = remaining.first(where: { $0.hasPrefix("-") && $0 != "-" && Double($0) == nil }) {
            throw CommandLineError("unknown option \(unknown)")
        }
        defer { remaining.removeAll() }
        return remaining
    }
}

/// A mistake in how a command was called; printed with the command's usage hint.
struct CommandLineError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
