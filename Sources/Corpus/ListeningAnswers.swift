import Foundation

/// One listener's answers to a listening test, as its page downloads them
/// (`{"format": "dfkit-listening-answers/1", …}`): for each A/B pair the side preferred (nil:
/// not answered), for each rating trial a score 0–100 per condition (nil: not rated).
public struct ListeningAnswers: Sendable, Codable {
    public struct PairAnswer: Sendable, Codable {
        public enum Choice: String, Sendable, Codable { case a, b }
        public let trial: Int
        public let id: String
        public let a: String
        public let b: String
        public let choice: Choice?

        /// The system preferred, nil when not answered.
        public var preferred: String? { choice.map { $0 == .a ? a : b } }
    }

    public struct Score: Sendable, Codable {
        public let kind: ListeningTest.Condition.Kind
        public let system: String?
        public let score: Double?

        var label: String { ListeningTest.Condition(kind: kind, system: system, audio: "").label }
    }

    public struct RatingAnswer: Sendable, Codable {
        public let trial: Int
        public let id: String
        public let scores: [Score]
    }

    public static let format = "dfkit-listening-answers/1"

    public let format: String
    public let seed: UInt64
    /// The report field the test's systems are groups of.
    public let by: String
    public let listener: String
    /// Made by the page when it opens, so that one file given twice is noticed.
    public let session: String
    public let pairs: [PairAnswer]
    public let ratings: [RatingAnswer]

    /// - Throws: `CorpusError.file` naming `path` and what is wrong with it.
    public init(contentsOfFile path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else { throw CorpusError.file(path, "cannot be read") }
        let answers: ListeningAnswers
        do {
            answers = try JSONDecoder().decode(ListeningAnswers.self, from: data)
        } catch {
            throw CorpusError.file(path, "is not a listening test's answers (\(Self.reason(error)))")
        }
        guard answers.format == Self.format else {
            throw CorpusError.file(path, "has format \"\(answers.format)\", expected \"\(Self.format)\"")
        }
        for rating in answers.ratings {
            for score in rating.scores {
                guard (score.score.map { $0.isFinite && (0...100).contains($0) }) ?? true else {
                    throw CorpusError.file(path, "trial \(rating.trial) (\(rating.id)): score \(score.score!) of \(score.label) outside 0…100")
                }
                guard (score.kind == .system) == (score.system != nil) else {
                    throw CorpusError.file(path, "trial \(rating.trial) (\(rating.id)): a \(score.kind.rawValue) score must \(score.kind == .system ? "" : "not ")name a system")
                }
            }
        }
        self = answers
    }

    private static func reason(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?: "no \"\(key.stringValue)\" at \(path(context))"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?, .dataCorrupted(let context)?:
            "\(context.debugDescription) at \(path(context))"
        default: "\(error)"
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.isEmpty ? "the top" : context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
}
