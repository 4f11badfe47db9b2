/// Several listeners' answers merged: per system, how often it was preferred in the A/B pairs it
/// took part in, with a 95 % Wilson interval; per pair of systems the same; and per condition of
/// the rating trials the mean score with its 95 % interval (Student's t).
public struct ListeningSummary: Sendable {
    public struct Preference: Sendable, Equatable {
        public let system: String
        /// Answered pairs the system was preferred in, and took part in.
        public let wins: Int
        public let trials: Int
        public var rate: Double { Double(wins) / Double(trials) }
        public let interval: BinomialInterval
    }

    public struct PairPreference: Sendable, Equatable {
        public let first: String
        public let second: String
        /// Answered pairs of these two systems that preferred `first`, of all answered pairs of them.
        public let firstWins: Int
        public let trials: Int
        public var rate: Double { Double(firstWins) / Double(trials) }
        public let interval: BinomialInterval
    }

    public let field: String
    public let listeners: Int
    public let answeredPairs: Int
    /// In the order of their systems.
    public let preferences: [Preference]
    public let pairs: [PairPreference]
    /// By condition label ("hidden reference", "noisy input", each system), in that order.
    public let ratings: [(condition: String, statistic: CorpusReport.Statistic)]

    /// - Throws: `CorpusError.invalidRun` when the answers group systems by different fields or a
    ///   session's answers are given twice.
    public init(_ answers: [(path: String, answers: ListeningAnswers)]) throws {
        let fields = Set(answers.map(\.answers.by))
        guard fields.count <= 1 else {
            throw CorpusError.invalidRun("the answers compare groups of different fields (\(fields.sorted().joined(separator: ", "))): "
                + answers.map { "\($0.path): --by \($0.answers.by)" }.joined(separator: "; "))
        }
        var sessions: [String: String] = [:]
        for (path, answer) in answers {
            if let first = sessions[answer.session] {
                throw CorpusError.invalidRun("\(path) holds the same listening session as \(first) (\(answer.session))")
            }
            sessions[answer.session] = path
        }
        field = fields.first ?? "model"
        listeners = answers.count
        let answered = answers.flatMap(\.answers.pairs).filter { $0.choice != nil }
        answeredPairs = answered.count
        var wins: [String: Int] = [:], trials: [String: Int] = [:]
        var pairWins: [[String]: Int] = [:], pairTrials: [[String]: Int] = [:]
        for pair in answered {
            let systems = [pair.a, pair.b].sorted(), preferred = pair.preferred!
            for system in Set(systems) { trials[system, default: 0] += 1 }
            wins[preferred, default: 0] += 1
            pairTrials[systems, default: 0] += 1
            if preferred == systems[0] { pairWins[systems, default: 0] += 1 }
        }
        preferences = trials.keys.sorted().map { system in
            let won = wins[system] ?? 0, total = trials[system]!
            return Preference(system: system, wins: won, trials: total, interval: BinomialInterval(successes: won, trials: total)!)
        }
        pairs = pairTrials.keys.sorted { $0.lexicographicallyPrecedes($1) }.map { systems in
            let won = pairWins[systems] ?? 0, total = pairTrials[systems]!
            return PairPreference(first: systems[0], second: systems[1], firstWins: won, trials: total,
                                  interval: BinomialInterval(successes: won, trials: total)!)
        }
        var scores: [String: [Double]] = [:]
        for score in answers.flatMap(\.answers.ratings).flatMap(\.scores) {
            if let value = score.score { scores[score.label, default: []].append(value) }
        }
        let fixed = ["hidden reference", "noisy input"]
        ratings = (fixed.filter { scores[$0] != nil } + scores.keys.filter { !fixed.contains($0) }.sorted()).compactMap { label in
            CorpusReport.Statistic(scores[label]!).map { (label, $0) }
        }
    }
}
