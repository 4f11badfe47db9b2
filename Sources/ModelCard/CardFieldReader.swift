import JSONDocument

/// Reads the fields of one JSON object of a card, noting every problem (with its path) instead
/// of stopping at the first, so that `dfkit card check` can list them all.
struct CardFieldReader {
    let file: String
    let path: String
    let object: [String: JSONValue]
    private let problems: CardProblemList
    /// Where this reader (and the ones it nests) note problems.
    var problemList: CardProblemList { problems }

    /// `value` as an object at `path`; a problem (and an empty object) when it is not one.
    init(_ value: JSONValue?, file: String, path: String, problems: CardProblemList) {
        self.file = file
        self.path = path
        self.problems = problems
        if case .object(let object)? = value {
            self.object = object
        } else {
            self.object = [:]
            problems.note(file: file, field: path, expected: "an object", found: Self.describe(value))
        }
    }

    func field(_ key: String) -> String { key.isEmpty ? path : path.isEmpty ? key : "\(path).\(key)" }

    func note(_ key: String, expected: String, found: String) {
        problems.note(file: file, field: field(key), expected: expected, found: found)
    }

    /// Notes every key outside `known`.
    func refuseUnknownKeys(_ known: [String]) {
        for key in object.keys.sorted() where !known.contains(key) {
            note(key, expected: "no field of this name here (the fields are \(known.joined(separator: ", ")))", found: "'\(key)'")
        }
    }

    func string(_ key: String, required: Bool = true, nonEmpty: Bool = true) -> String? {
        switch object[key] {
        case .string(let text)? where !nonEmpty || !text.isEmpty: return text
        case nil where !required: return nil
        case let other: note(key, expected: nonEmpty ? "a non-empty string" : "a string", found: Self.describe(other)); return nil
        }
    }

    /// A whole number in `range`; `meaning` says what it is (for the message).
    func integer(_ key: String, in range: ClosedRange<Int>, meaning: String, required: Bool = true) -> Int? {
        switch object[key] {
        case .number(let number)? where number == number.rounded() && number >= Double(range.lowerBound) && number <= Double(range.upperBound):
            return Int(number)
        case nil where !required: return nil
        case let other:
            note(key, expected: "\(meaning): a whole number from \(range.lowerBound) to \(range.upperBound)", found: Self.describe(other))
            return nil
        }
    }

    func number(_ key: String, where isValid: (Double) -> Bool, meaning: String, required: Bool = true) -> Double? {
        switch object[key] {
        case .number(let number)? where number.isFinite && isValid(number): return number
        case nil where !required: return nil
        case let other: note(key, expected: meaning, found: Self.describe(other)); return nil
        }
    }

    func bool(_ key: String) -> Bool? {
        switch object[key] {
        case .bool(let value)?: return value
        case nil: return nil
        case let other: note(key, expected: "true or false", found: Self.describe(other)); return nil
        }
    }

    /// One of `words` (a string).
    func word<Word: RawRepresentable & CaseIterable>(_ key: String, as type: Word.Type, required: Bool = true) -> Word?
    where Word.RawValue == String {
        switch object[key] {
        case .string(let text)?:
            if let word = Word(rawValue: text) { return word }
            note(key, expected: Self.oneOf(Word.allCases.map(\.rawValue)), found: "'\(text)'")
            return nil
        case nil where !required: return nil
        case let other: note(key, expected: Self.oneOf(Word.allCases.map(\.rawValue)), found: Self.describe(other)); return nil
        }
    }

    func nested(_ key: String) -> CardFieldReader {
        CardFieldReader(object[key], file: file, path: field(key), problems: problems)
    }

    static func oneOf(_ words: [String]) -> String {
        words.count == 1 ? "'\(words[0])'" : "one of " + words.map { "'\($0)'" }.joined(separator: ", ")
    }

    /// A value as a message shows what was found.
    static func describe(_ value: JSONValue?) -> String {
        switch value {
        case nil: "nothing (the field is missing)"
        case .number(let number)?: "\(JSONValue.number(number).label)"
        case .string(let text)?: "'\(text)'"
        case .bool(let flag)?: "\(flag)"
        case .array(let items)?: "an array of \(items.count)"
        case .object?: "an object"
        case .null?: "null"
        }
    }
}

/// The problems noted while reading one card (shared by the readers of its nested objects).
final class CardProblemList {
    private(set) var problems: [CardProblem] = []

    func note(file: String, field: String, expected: String, found: String) {
        problems.append(CardProblem(file: file, field: field, expected: expected, found: found))
    }
}
