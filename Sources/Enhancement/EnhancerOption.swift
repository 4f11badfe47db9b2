/// A setting a model takes, described once by the model so that everything above the seam can
/// offer it without knowing the model: command-line flags (`--<name> <placeholder>`), manifest
/// and results-record keys (`key`), plugin control ports and help texts are all made from it.
public struct EnhancerOption: Sendable, Hashable {
    /// The values the option accepts.
    public enum Kind: Sendable, Hashable {
        /// A finite number within the range (the bounds included).
        case number(ClosedRange<Double>)
        /// One of these words.
        case choice([String])
    }

    /// The flag's name without dashes (`atten-lim`); also the plugin port's symbol, with `-` as `_`.
    public let name: String
    /// The key in a manifest's `settings` and in a results record (`atten_lim_db`).
    public let key: String
    public let kind: Kind
    /// What the model does when the option is not given.
    public let defaultValue: EnhancerOptionValue
    /// The value's name in usage lines (`DB`, `B`, `SET`).
    public let placeholder: String
    /// What the option does, in one sentence, for help texts and port labels.
    public let help: String
    /// How a plugin offers the option as a control port; nil: it does not.
    public let port: Port?

    /// A plugin control port for a numeric option.
    public struct Port: Sendable, Hashable {
        /// The port's name as hosts show it (LADSPA name, LV2 `lv2:name`).
        public let name: String
        /// The range the port offers (a host draws a slider between these), within what the
        /// command line takes.
        public let range: ClosedRange<Double>

        public init(name: String, range: ClosedRange<Double>) {
            self.name = name
            self.range = range
        }
    }

    public init(name: String, key: String, kind: Kind, defaultValue: EnhancerOptionValue, placeholder: String, help: String,
                port: Port? = nil) {
        self.name = name
        self.key = key
        self.kind = kind
        self.defaultValue = defaultValue
        self.placeholder = placeholder
        self.help = help
        self.port = port
    }

    /// The flag as a command line spells it.
    public var flag: String { "--" + name }

    /// `value` if this option accepts it. - Throws: `EnhancerError.unsupported` saying what it takes.
    public func checked(_ value: EnhancerOptionValue) throws -> EnhancerOptionValue {
        switch (kind, value) {
        case (.number(let range), .number(let number)) where number.isFinite && range.contains(number):
            return value
        case (.choice(let words), .choice(let word)) where words.contains(word):
            return value
        default:
            throw EnhancerError.unsupported("\(flag) takes \(accepted), got \(value)")
        }
    }

    /// `text` read as this option's value (a number or one of the words).
    /// - Throws: `EnhancerError.unsupported` saying what it takes.
    public func value(parsing text: String) throws -> EnhancerOptionValue {
        switch kind {
        case .number:
            guard let number = Double(text) else { throw EnhancerError.unsupported("\(flag) takes \(accepted), got '\(text)'") }
            return try checked(.number(number))
        case .choice:
            return try checked(.choice(text))
        }
    }

    /// What the option accepts, in words.
    public var accepted: String {
        switch kind {
        case .number(let range):
            switch (range.lowerBound.isFinite, range.upperBound.isFinite) {
            case (true, true): "a number from \(EnhancerOptionValue.number(range.lowerBound)) to \(EnhancerOptionValue.number(range.upperBound))"
            case (true, false): "a number ≥ \(EnhancerOptionValue.number(range.lowerBound))"
            case (false, true): "a number ≤ \(EnhancerOptionValue.number(range.upperBound))"
            case (false, false): "a finite number"
            }
        case .choice(let words):
            words.map { "'\($0)'" }.joined(separator: " or ")
        }
    }
}

/// The value of one option: a number or a word, as the option's kind says.
public enum EnhancerOptionValue: Sendable, Hashable, CustomStringConvertible {
    case number(Double)
    case choice(String)

    /// A number without a needless `.0`, a word as it is.
    public var description: String {
        switch self {
        case .number(let number):
            number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .choice(let word):
            word
        }
    }

    public var number: Double? {
        if case .number(let number) = self { return number }
        return nil
    }

    public var word: String? {
        if case .choice(let word) = self { return word }
        return nil
    }
}
