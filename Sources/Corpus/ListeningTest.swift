import Foundation

/// A blind listening test drawn from a corpus run: A/B pairs of two systems' outputs of one input,
/// and MUSHRA-style trials (every system's output, the hidden reference and the noisy input as
/// an anchor, each rated 0–100 against the labelled reference). Drawn from `seed` alone: the same
/// records and seed give the same trials in the same order, sides and condition orders.
public struct ListeningTest: Sendable {
    /// What is heard in a trial: a system's output, the clean reference or the noisy input.
    public struct Condition: Sendable, Equatable, Codable {
        public enum Kind: String, Sendable, Codable { case system, reference, noisy }
        public let kind: Kind
        /// The system's group (nil for the reference and the noisy input).
        public let system: String?
        public let audio: String

        /// How the summary names it: the system, or "hidden reference" / "noisy input".
        public var label: String {
            switch kind {
            case .system: system ?? "–"
            case .reference: "hidden reference"
            case .noisy: "noisy input"
            }
        }
    }

    public struct Pair: Sendable {
        public let trial: Int
        public let id: String
        public let a: Condition
        public let b: Condition
    }

    public struct Rating: Sendable {
        public let trial: Int
        public let id: String
        /// The labelled reference the listener compares with.
        public let reference: String
        /// In the order they are presented.
        public let conditions: [Condition]
    }

    public let seed: UInt64
    public let pairs: [Pair]
    public let ratings: [Rating]

    /// Draws `pairCount` pairs (without repetition, of the items' playable outputs: records `ok`
    /// whose output file is there) and `ratingCount` rating trials (of items with a reference).
    /// Fewer are drawn when fewer exist.
    public init(items: [ComparedItem], pairCount: Int, ratingCount: Int, seed: UInt64) {
        var generator = PermutedCongruentialGenerator(seed: seed)
        func playable(_ item: ComparedItem) -> [Condition] {
            item.records.keys.sorted().compactMap { system in
                let record = item.records[system]!
                guard record.status == .ok, let output = record.output, FileManager.default.fileExists(atPath: output) else { return nil }
                return Condition(kind: .system, system: system, audio: output)
            }
        }
        var candidates: [(id: String, first: Condition, second: Condition)] = []
        for item in items {
            let outputs = playable(item)
            for (index, first) in outputs.enumerated() {
                for second in outputs[(index + 1)...] { candidates.append((item.id, first, second)) }
            }
        }
        pairs = generator.shuffled(candidates).prefix(max(pairCount, 0)).enumerated().map { offset, candidate in
            let swapped = generator.below(2) == 1
            return Pair(trial: offset + 1, id: candidate.id, a: swapped ? candidate.second : candidate.first,
                        b: swapped ? candidate.first : candidate.second)
        }
        let rateable = items.filter { item in
            item.reference.map { FileManager.default.fileExists(atPath: $0) } == true && !playable(item).isEmpty
        }
        ratings = generator.shuffled(rateable).prefix(max(ratingCount, 0)).enumerated().map { offset, item in
            let reference = item.reference!
            let conditions = playable(item) + [Condition(kind: .reference, system: nil, audio: reference)]
                + (FileManager.default.fileExists(atPath: item.input) ? [Condition(kind: .noisy, system: nil, audio: item.input)] : [])
            return Rating(trial: offset + 1, id: item.id, reference: reference, conditions: generator.shuffled(conditions))
        }
        self.seed = seed
    }
}
