import Inference

/// The words after a scenario's name, read against the flags that scenario declares: flags that
/// take a value (`--runs 5`) and switches that stand alone (`--profile`). A flag given twice keeps
/// its last value. Errors name the scenario, the flag and the bad value; an unknown word lists
/// the flags the scenario knows.
struct ScenarioOptions {
    private let scenario: String
    private let values: [String: String]
    private let switches: Set<String>

    /// - Parameters:
    ///   - valueFlags: flags followed by a value, e.g. `["--models", "--runs"]`.
    ///   - switchFlags: flags that take no value, e.g. `["--profile"]`.
    /// - Throws: `BenchmarkError` for a word that is not one of the flags, or a value flag at the
    ///   end with nothing after it.
    init(_ arguments: [String], scenario: String, valueFlags: [String], switchFlags: [String] = []) throws {
        self.scenario = scenario
        var values: [String: String] = [:]
        var switches: Set<String> = []
        var remaining = arguments[...]
        while let word = remaining.popFirst() {
            if switchFlags.contains(word) {
                switches.insert(word)
            } else if valueFlags.contains(word) {
                guard let value = remaining.popFirst() else { throw BenchmarkError("\(scenario): \(word) needs a value") }
                values[word] = value
            } else {
                let known = (valueFlags + switchFlags).joined(separator: ", ")
                throw BenchmarkError("\(scenario): unknown option '\(word)'; known options: \(known.isEmpty ? "none" : known)")
            }
        }
        self.values = values
        self.switches = switches
    }

    /// Whether the switch `flag` was given.
    func contains(_ flag: String) -> Bool {
        switches.contains(flag)
    }

    /// How `--profile` (by op type) and `--profile-nodes` (by node, which wins when both are
    /// given) ask for a profile; nil when neither was given.
    var profileGrouping: OperatorProfile.Grouping? {
        contains("--profile-nodes") ? .node : contains("--profile") ? .operatorType : nil
    }

    /// The value after `flag`, or `nil` when the flag was not given.
    func string(_ flag: String) -> String? {
        values[flag]
    }

    /// The value after `flag` as an integer ≥ 1, or `nil` when the flag was not given.
    func positiveInt(_ flag: String) throws -> Int? {
        guard let text = values[flag] else { return nil }
        guard let number = Int(text), number > 0 else {
            throw BenchmarkError("\(scenario): \(flag) expects a positive integer, got '\(text)'")
        }
        return number
    }

    /// The comma-separated items after `flag` (at least one, none empty), or `nil` when the flag
    /// was not given.
    func list(_ flag: String) throws -> [String]? {
        guard let text = values[flag] else { return nil }
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard items.allSatisfy({ !$0.isEmpty }) else {
            throw BenchmarkError("\(scenario): \(flag) expects a comma-separated list without empty items, got '\(text)'")
        }
        return items
    }

    /// The comma-separated items after `flag`, each one of `choices`, or `nil` when the flag was
    /// not given.
    func list(_ flag: String, from choices: [String]) throws -> [String]? {
        guard let items = try list(flag) else { return nil }
        for item in items where !choices.contains(item) {
            throw BenchmarkError("\(scenario): \(flag) accepts \(choices.joined(separator: ", ")), got '\(item)'")
        }
        return items
    }

    /// The comma-separated numbers after `flag`, each finite and > 0, or `nil` when the flag was
    /// not given.
    func positiveDoubles(_ flag: String) throws -> [Double]? {
        try list(flag)?.map { item in
            guard let number = Double(item), number.isFinite, number > 0 else {
                throw BenchmarkError("\(scenario): \(flag) expects positive numbers, got '\(item)'")
            }
            return number
        }
    }
}
