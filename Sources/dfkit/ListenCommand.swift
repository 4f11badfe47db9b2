import Corpus
import Foundation

/// `dfkit listen RESULTS.jsonl… --html DIR [--pairs N] [--mushra N] [--seed S] [--by FIELD] [--link]`:
/// a blind listening test drawn from a corpus run, as a page whose answers `dfkit report --votes` reads.
struct ListenCommand: Command {
    static let name = "listen"
    static let summary = "make a blind A/B (and MUSHRA-style) listening test page from corpus results"
    static let help = """
        USAGE: dfkit listen RESULTS.jsonl [RESULTS.jsonl …] --html DIR [--pairs N] [--mushra N] [--seed S] [--by FIELD] [--link]

        Draws a listening test from the records of corpus runs (merged as `dfkit report` merges
        them; systems are groups of --by, model by default) and writes it as a page into DIR
        (DIR/index.html; opens from file:// or any server):
          • N A/B pairs: two systems' outputs of one input, unlabelled, in random order and on
            random sides; the listener picks the one that sounds better;
          • with --mushra N, N MUSHRA-style trials: for an input with a clean reference, every
            system's output, the hidden reference and the noisy input (as an anchor), unlabelled
            and shuffled, each rated 0–100 against the labelled reference.
        The draw depends on the records and the seed alone: the same seed gives the same trials.
        The page downloads the listener's answers as JSON; give them to `dfkit report --votes`.
        Audio files are named by hashes, so their names tell nothing.

        OPTIONS:
          --html DIR     where to write the page (required)
          --pairs N      A/B pairs to draw (default 20; fewer when fewer exist)
          --mushra N     rating trials to draw (default 0)
          --seed S       0 to 2^53 − 1 (default: drawn at random, and printed)
          --by FIELD     what a system is (default model; FIELD,FIELD for several)
          --link         link the audio (relative symbolic links) instead of copying it
          -h, --help     show this help
        """

    /// The largest seed a page's script keeps exactly (a JavaScript number's 53-bit mantissa).
    static let largestSeed: UInt64 = (1 << 53) - 1

    let paths: [String]
    let directory: String
    let pairCount: Int
    let ratingCount: Int
    let seed: UInt64
    let field: String
    let link: Bool

    init(arguments: inout ArgumentList) throws {
        guard let directory = try arguments.value("--html") else { throw CommandLineError("--html DIR is required") }
        self.directory = directory
        pairCount = try arguments.number("--pairs", as: Int.self) ?? 20
        ratingCount = try arguments.number("--mushra", as: Int.self) ?? 0
        guard pairCount >= 0, ratingCount >= 0, pairCount + ratingCount > 0 else {
            throw CommandLineError("--pairs and --mushra must be 0 or more, and not both 0")
        }
        seed = try arguments.number("--seed", as: UInt64.self) ?? UInt64.random(in: 0...Self.largestSeed)
        guard seed <= Self.largestSeed else { throw CommandLineError("--seed must be 0 to \(Self.largestSeed), got \(seed)") }
        field = try arguments.value("--by") ?? "model"
        link = arguments.flag("--link")
        paths = try arguments.positionals()
        guard !paths.isEmpty else { throw CommandLineError("no RESULTS.jsonl given") }
    }

    func run() throws {
        let items = try ComparedItem.items(try ResultsLog.records(in: paths), by: field)
        let test = ListeningTest(items: items, pairCount: pairCount, ratingCount: ratingCount, seed: seed)
        guard !test.pairs.isEmpty || !test.ratings.isEmpty else {
            throw CorpusError.invalidRun("nothing to listen to: no input has two playable outputs"
                + (ratingCount > 0 ? " or a reference and a playable output" : "") + " under --by \(field)")
        }
        try ListeningPage(test: test, field: field, link: link).write(to: directory)
        print("listening test (seed \(seed)): \(test.pairs.count) A/B pair(s)" + (pairCount > test.pairs.count ? " (all there are)" : "")
            + ", \(test.ratings.count) rating trial(s); open \((directory as NSString).appendingPathComponent("index.html"))")
    }
}
