// GateInterleavedRecurrence (AVX-512): its layout element by element against the documented
// formula. Its step's numbers are checked through GRUKernel against the ONNX definition
// (GRUTests, "a block-transposed or gate-interleaved R"). Every test needs a CPU with AVX-512
// and says so when it cannot run.

import AVX512Kernels
import Inference
import Testing

@Suite("Gate-interleaved recurrence", .enabled(if: VectorWidth.available == .avx512,
                                               "AVX-512 kernels are off here (the CPU lacks x86-64-v4, or DFKIT_VECTOR_WIDTH=256)"))
struct GateInterleavedRecurrenceTests {
    @Test("blocks of 64 units, each column holding the block's z, r and n rows in turn")
    func layout() throws {
        for hidden in [64, 128, 192] {
            let lda = hidden + 3
            let rows = 3 * hidden
            let source = (0..<(rows * lda)).map(Float.init)
            var packed = [Float](repeating: .nan, count: rows * hidden)
            let recurrence = try #require(GateInterleavedRecurrence(hiddenSize: hidden))
            #expect(recurrence.rows == rows && recurrence.columns == hidden)
            source.withUnsafeBufferPointer { source in
                packed.withUnsafeMutableBufferPointer { recurrence.pack(source.baseAddress!, lda: lda, into: $0.baseAddress!) }
            }
            for gate in 0..<3 {
                for unit in 0..<hidden {
                    for column in 0..<hidden {
                        let index = (unit / 64 * hidden + column) * 192 + gate * 64 + unit % 64
                        #expect(packed[index] == source[(gate * hidden + unit) * lda + column],
                                "H = \(hidden): gate \(gate), unit \(unit), column \(column) at \(index)")
                    }
                }
            }
        }
    }

    @Test("only positive multiples of 64 units")
    func shapes() {
        #expect(GateInterleavedRecurrence(hiddenSize: 0) == nil)
        #expect(GateInterleavedRecurrence(hiddenSize: 32) == nil)
        #expect(GateInterleavedRecurrence(hiddenSize: 96) == nil)
        #expect(GateInterleavedRecurrence(hiddenSize: 64) != nil)
    }
}
