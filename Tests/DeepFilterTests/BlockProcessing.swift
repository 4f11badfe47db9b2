/// Runs `samples` (a whole number of `blockSize` blocks) through `process` one block at a time,
/// as a real-time caller feeds an enhancer, and returns the output blocks joined.
func processInBlocks(_ samples: [Float], blockSize: Int,
                     _ process: (UnsafeBufferPointer<Float>, UnsafeMutableBufferPointer<Float>) -> Void) -> [Float] {
    var output = [Float](repeating: 0, count: samples.count)
    samples.withUnsafeBufferPointer { input in
        output.withUnsafeMutableBufferPointer { output in
            for start in stride(from: 0, to: input.count - blockSize + 1, by: blockSize) {
                process(UnsafeBufferPointer(rebasing: input[start..<(start + blockSize)]),
                        UnsafeMutableBufferPointer(rebasing: output[start..<(start + blockSize)]))
            }
        }
    }
    return output
}
