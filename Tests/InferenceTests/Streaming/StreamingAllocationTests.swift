import AllocationCounter
import CBLAS
import Inference
import Testing
import TestSupport

/// A streaming plan's `run()` must not touch the heap: after warm-up, 1000 frames of the DFN3
/// encoder (and of both decoders) are run while the calling thread's allocations are counted
/// through the interposed C allocator (Tests/AllocationCounter).
@Suite struct StreamingAllocationTests {
    @Test func theCounterSeesAllocations() {
        allocation_counter_start()
        let block = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 64)
        block.deallocate()
        let counted = allocation_counter_stop()
        #expect(counted >= 1, "the interposed allocator is not active; an allocation-free result would mean nothing")
    }

    @Test(arguments: ["enc", "erb_dec", "df_dec"])
    func runAllocatesNothing(graphName: String) throws {
        // OpenBLAS's threaded SGEMM mallocs a work buffer per call; real-time use is single-threaded.
        openblas_set_num_threads(1)
        let plan = try StreamingPlan(graph: try DFN3GraphTests.graph(graphName))
        let snapshot = plan.makeState()
        var generator = SystemRandomNumberGenerator()
        for input in plan.inputs {
            let values = try #require(input.unsafeMutableFloats)
            for index in values.indices { values[index] = Float.random(in: 0...1, using: &generator) }
        }
        for _ in 0..<10 { plan.run() }
        let allocations = try fewestAllocations {
            for frame in 0..<1000 {
                if let first = plan.inputs.first?.unsafeMutableFloats { first[frame % first.count] = Float(frame % 7) * 0.1 }
                plan.run()
            }
            try plan.saveState(into: snapshot)
            try plan.restoreState(from: snapshot)
            plan.reset()
        }
        #expect(allocations == 0, "\(graphName): \(allocations) heap allocations in 1000 runs, a save, a restore and a reset")
    }
}
