/// One of `count` parts of a corpus, chosen by its 0-based `index`: a file belongs to the part its
/// id's FNV-1a hash falls into, so that `count` independent invocations (Slurm array tasks) cover
/// the corpus exactly once, whatever order each lists the files in.
public struct Shard: Sendable, Equatable {
    public let index: Int
    public let count: Int

    public static let whole = Shard(uncheckedIndex: 0, count: 1)

    private init(uncheckedIndex index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses `I/N` with 0 ≤ I < N (Slurm's `$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT` for an
    /// array of 0…N−1).
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, count <= 1_000_000 else {
            throw CorpusError.invalidRun("--shard \(text): expected I/N with whole numbers, N from 1 to 1000000")
        }
        guard (0..<count).contains(index) else {
            throw CorpusError.invalidRun("--shard \(text): I must be 0 to \(count - 1) (shards are numbered from 0, as a Slurm array 0-\(count - 1))")
        }
        self.init(uncheckedIndex: index, count: count)
    }

    public func contains(id: String) -> Bool {
        Int(Self.hash(id) % UInt64(count)) == index
    }

    /// 64-bit FNV-1a of the id's UTF-8 bytes: stable across runs, machines and Swift versions
    /// (Swift's own hashing is seeded per process).
    static func hash(_ id: String) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01b3
        }
        return value
    }
}
