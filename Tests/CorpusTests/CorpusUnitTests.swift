import Checksum
import Corpus
import Foundation
import TestSupport
import Testing

/// The corpus pieces against independent truths: `sha256sum` for the checksum, the partition
/// property for shards, published t tables for the intervals, the manifest's rules for its errors.
struct CorpusUnitTests {
    static func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("dfkit-sha-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [0, 1, 55, 56, 63, 64, 65, 1000, 200_000])
    func sha256AgreesWithCoreutils(length: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let path = try Self.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let expected = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: " ").first.map(String.init)
        #expect(try SHA256.digest(ofFile: path) == expected)
    }

    @Test(arguments: [1, 2, 4, 7])
    func shardsCoverEveryIdExactlyOnce(count: Int) throws {
        let ids = (0..<2000).map { "speaker\($0 % 17)/utterance-\($0)" }
        let shards = try (0..<count).map { try Shard(parsing: "\($0)/\(count)") }
        for id in ids {
            #expect(shards.filter { $0.contains(id: id) }.count == 1, "\(id)")
        }
        // A fair split: each shard within 25 % of its share (a binomial spread of ~4 % at n = 2000).
        for shard in shards {
            let size = ids.filter { shard.contains(id: $0) }.count
            #expect(abs(Double(size) - 2000 / Double(count)) <= 0.25 * 2000 / Double(count), "shard \(shard.index): \(size)")
        }
    }

    @Test func shardTextsOutOfRangeAreRefused() {
        for text in ["5/4", "4/4", "-1/4", "1/0", "a/b", "1", "1/2/3", ""] {
            #expect(throws: CorpusError.self) { try Shard(parsing: text) }
        }
    }

    @Test func studentTQuantilesMatchTheTables() {
        // 97.5 % points from standard tables (e.g. NIST/SEMATECH e-Handbook, Table 1.3.6.7.2).
        for (degrees, value) in [(1, 12.706), (5, 2.571), (30, 2.042), (40, 2.021), (60, 2.000), (100, 1.984), (1000, 1.962)] {
            #expect(abs(StudentT.quantile975(degrees: degrees) - value) <= 0.0015, "ν = \(degrees)")
        }
    }

    @Test func statisticsOfAKnownSample() throws {
        let statistic = try #require(CorpusReport.Statistic([2, 4, 4, 4, 5, 5, 7, 9]))
        #expect(statistic.mean == 5)
        #expect(statistic.median == 4.5)
        // s² = 32/7, half-width t(0.975, 7) · s/√8 = 2.365 · 0.7559.
        #expect(abs((statistic.confidence95 ?? 0) - 2.365 * (32.0 / 7 / 8).squareRoot()) <= Tolerance.doubleUnits.absolute)
        #expect(CorpusReport.Statistic([3])?.confidence95 == nil)
    }

    static func manifest(_ text: String) throws -> Manifest {
        let path = try temporaryFile(Array(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try Manifest(contentsOfFile: path)
    }

    @Test func manifestErrorsNameTheLine() throws {
        let cases: [(String, Int, String)] = [
            ("{\"id\": \"a\", \"audio\": \"a.wav\"}\nnot json\n", 2, "not a JSON object"),
            ("{\"audio\": \"a.wav\"}\n", 1, "needs \"id\""),
            ("{\"id\": \"a\"}\n", 1, "needs \"audio\""),
            ("{\"id\": \"a\", \"audio\": \"a.wav\"}\n\n{\"id\": \"a\", \"audio\": \"b.wav\"}\n", 3, "repeats line 1"),
            ("{\"id\": \"../x\", \"audio\": \"a.wav\"}\n", 1, "relative name"),
            ("{\"id\": \"a\", \"audio\": \"a.wav\", \"settings\": {\"pf_beta\": -1}}\n", 1, "setting"),
        ]
        for (text, line, reason) in cases {
            #expect(throws: CorpusError.self) { try Self.manifest(text) }
            do {
                _ = try Self.manifest(text)
            } catch let CorpusError.manifest(_, found, message) {
                #expect(found == line && message.contains(reason), "\(message) at line \(found)")
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
        let good = try Self.manifest("{\"id\": \"a/b\", \"audio\": \"x.wav\", \"speaker\": \"s1\"}\n\n")
        #expect(good.entries.count == 1 && good.entries[0].meta["speaker"] == .string("s1"))
        #expect(good.entries[0].audio.hasSuffix("/x.wav") && good.entries[0].audio.hasPrefix("/"))
    }

    @Test func resultsKeepTheLatestRecordAndSkipAKilledRunsLastLine() throws {
        func line(_ id: String, _ time: Double, _ status: String) -> String {
            "{\"id\":\"\(id)\",\"input\":\"\(id).wav\",\"model\":\"dfn3\",\"settings\":{},\"status\":\"\(status)\",\"finished_at\":\(time),\"stoi\":0.5}\n"
        }
        let first = try Self.temporaryFile(Array((line("a", 1, "error") + line("b", 1, "ok")).utf8))
        let second = try Self.temporaryFile(Array((line("a", 2, "ok") + "{\"id\":\"c\",\"inp").utf8))
        defer { for path in [first, second] { try? FileManager.default.removeItem(atPath: path) } }
        let records = try ResultsLog.records(in: [first, second])
        #expect(records.map(\.id) == ["a", "b"])
        #expect(records[0].status == .ok && records[0].metrics["stoi"] == .number(0.5))
        let broken = try Self.temporaryFile(Array(("garbage\n" + line("a", 1, "ok")).utf8))
        defer { try? FileManager.default.removeItem(atPath: broken) }
        #expect(throws: CorpusError.self) { try ResultsLog.records(in: [broken]) }
    }
}

/// The pieces of the report page and the listening test: the seeded draw against PCG's published
/// demo output, the merge of several systems' records, old records without a reference.
struct ComparisonUnitTests {
    @Test func generatorReproducesThePCG32Demo() {
        // pcg32-demo of pcg-c-basic (pcg-random.org), seeded with state 42, sequence 54.
        var generator = PermutedCongruentialGenerator(seed: 42, stream: 54)
        #expect((0..<6).map { _ in generator.next() } == [0xa15c_02b7, 0x7b47_f409, 0xba1d_3330, 0x83d2_f293, 0xbfa4_784b, 0xcbed_606e])
        #expect(String((0..<65).map { _ in generator.below(2) == 1 ? "H" : "T" })
            == "HHTTTHTHHHTHTTTHHHHHTTTHHHTHTHTHTTHTTTHHHHHHTTTTHHTTTTTHTTTTTTTHT")
        #expect((0..<33).map { _ in generator.below(6) + 1 } == [3, 4, 1, 1, 2, 2, 3, 2, 4, 3, 2, 4, 3, 3, 5, 2, 3, 1, 3, 1, 5, 1, 4, 1, 5, 6, 4, 6, 6, 2, 6, 3, 3])
    }

    static func line(_ id: String, model: String, settings: String = "{}", time: Double, extra: String = "") -> String {
        "{\"id\":\"\(id)\",\"input\":\"\(id).wav\",\"model\":\"\(model)\",\"settings\":\(settings),\"status\":\"ok\",\"finished_at\":\(time)\(extra)}\n"
    }

    @Test func recordsOfOneIdBySeveralSystemsStayApart() throws {
        let text = Self.line("a", model: "dfn3", time: 1) + Self.line("a", model: "gtcrn", time: 2)
            + Self.line("a", model: "dfn3", settings: "{\"atten_lim_db\":12}", time: 3) + Self.line("a", model: "dfn3", time: 4, extra: ",\"stoi\":0.9")
        let path = try CorpusUnitTests.temporaryFile(Array(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let records = try ResultsLog.records(in: [path])
        #expect(records.count == 3)
        #expect(records.first { $0.model == "dfn3" && $0.settings.isEmpty }?.metrics["stoi"] == .number(0.9))
        let items = try ComparedItem.items(records, by: "model,atten_lim_db")
        #expect(items.count == 1 && Set(items[0].records.keys) == ["dfn3 / –", "gtcrn / –", "dfn3 / 12"])
        // By model alone two dfn3 records of one id collide: refused, naming the id and a field that tells them apart.
        #expect { try ComparedItem.items(records, by: "model") } throws: { error in
            "\(error)".contains("id \"a\"") && "\(error)".contains("--by model,atten_lim_db")
        }
    }

    @Test func recordsWithoutAReferenceStillLoadAndNewOnesKeepIt() throws {
        let old = try JSONDecoder().decode(ResultRecord.self, from: Data(Self.line("a", model: "dfn3", time: 1).utf8))
        #expect(old.reference == nil && old.metrics.isEmpty)
        var record = old
        record.reference = "/clean/a.wav"
        let again = try JSONDecoder().decode(ResultRecord.self, from: try JSONEncoder().encode(record))
        #expect(again.reference == "/clean/a.wav" && again.metrics.isEmpty)
    }

    @Test func wilsonIntervalsMatchPublishedValues() throws {
        // Newcombe (1998), Statistics in Medicine 17:857, Table I: 81/263 → 0.2553–0.3662; 15/148 → 0.0624–0.1605; 0/20 → 0–0.1611.
        for (successes, trials, lower, upper) in [(81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611)] {
            let interval = try #require(BinomialInterval(successes: successes, trials: trials))
            #expect(abs(interval.lower - lower) <= 0.00005 && abs(interval.upper - upper) <= 0.00005, "\(successes)/\(trials): \(interval)")
        }
        #expect(BinomialInterval(successes: 1, trials: 0) == nil)
    }
}
