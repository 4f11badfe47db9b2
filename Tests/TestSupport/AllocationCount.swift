import AllocationCounter

/// The heap allocations `body` makes on the calling thread (counted by the interposed allocator
/// in Tests/AllocationCounter), the fewest of up to `attempts` runs; stops at the first run that
/// makes none. OpenBLAS gives each concurrent call a buffer from a shared pool and mallocs a new
/// one the first time tests on other threads hold the rest: that one-time growth can land in any
/// measured span, while an allocation the measured code makes itself lands in every run.
/// Under a sanitizer nothing is counted and the result is `UInt64.max`, so a test fails visibly.
public func fewestAllocations(attempts: Int = 3, _ body: () throws -> Void) rethrows -> UInt64 {
    var fewest = UInt64.max
    for _ in 0..<max(attempts, 1) {
        fewest = min(fewest, try allocationCount(body))
        if fewest == 0 { break }
    }
    return fewest
}

/// The heap allocations one run of `body` makes on the calling thread (`UInt64.max` under a
/// sanitizer, as for `fewestAllocations`).
public func allocationCount(_ body: () throws -> Void) rethrows -> UInt64 {
    allocation_counter_start()
    try body()
    return allocation_counter_stop()
}
