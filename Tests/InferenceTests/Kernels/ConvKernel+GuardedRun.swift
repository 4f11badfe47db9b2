import Inference

extension ConvKernel {
    /// Runs the kernel once with its output and scratch starting full of NaN (garbage it must
    /// overwrite, never read back) and guarded on both sides: the output values, and whether the
    /// kernel stayed inside both buffers. `bias` nil runs without one.
    func runGuarded(input: [Float], weights: [Float], bias: [Float]?) -> (output: [Float], guardsIntact: Bool) {
        var scratch = GuardedBuffer(count: scratchCount, fill: .nan)
        var output = GuardedBuffer(count: layout.outputCount, fill: .nan)
        input.withUnsafeBufferPointer { input in
            weights.withUnsafeBufferPointer { weights in
                (bias ?? []).withUnsafeBufferPointer { bias in
                    scratch.withPointer { scratch in
                        output.withPointer {
                            // An empty array's buffer may still have a base address: nil means no bias.
                            run(input: input.baseAddress!, weights: weights.baseAddress!, bias: bias.isEmpty ? nil : bias.baseAddress,
                                output: $0, scratch: scratchCount > 0 ? scratch : nil)
                        }
                    }
                }
            }
        }
        return (output.values, output.guardsIntact && scratch.guardsIntact)
    }
}
