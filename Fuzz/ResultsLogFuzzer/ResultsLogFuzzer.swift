import Corpus
import Foundation

/// libFuzzer entry: arbitrary bytes as a results log (`dfkit report` merging shards and resumed
/// runs): the JSONL record reader, keeping the latest record per id, then the report grouped by
/// model and by a settings and a manifest field, as `dfkit report --by` groups. Every input
/// reads or throws.
@_cdecl("LLVMFuzzerTestOneInput")
public func resultsLogFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard FileManager.default.createFile(atPath: scratchLog, contents: Data(UnsafeBufferPointer(start: data, count: size))) else {
        fatalError("cannot write \(scratchLog)")
    }
    guard let records = try? ResultsLog.records(in: [scratchLog, scratchLog]) else { return 0 }
    for field in ["model", "atten_lim_db", "speaker", "status"] {
        _ = CorpusReport(records: records, by: field)
    }
    return 0
}

/// The log is a file to its reader; one per fuzzing process, in memory.
private let scratchLog = "/dev/shm/dfkit-results-fuzzer-\(getpid()).jsonl"
