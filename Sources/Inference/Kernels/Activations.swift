import VectorKernels

// Activations — element-wise activation functions over float32 buffers, vectorised with SIMD8,
// optionally fused with a bias add so that a conv/GEMM epilogue is one pass over its output.
//
//   public enum Activation { identity, relu, leakyRelu(alpha:), sigmoid, tanh }
//
//   func apply(_ input: UnsafePointer<Float>, to output: UnsafeMutablePointer<Float>,
//              count: Int, bias: Float = 0)
//       output[i] = f(input[i] + bias). `input` may equal `output` (in place).
//
//   func apply(_ input: UnsafePointer<Float>, to output: UnsafeMutablePointer<Float>,
//              rows: Int, columns: Int, columnBias: UnsafePointer<Float>?)
//       Row-major rows × columns: output[r, c] = f(input[r, c] + columnBias[c]) (bias optional).
//
// sigmoid and tanh are `VectorKernels`' logistic and hyperbolicTangent, the gate functions the
// GRU and LSTM kernels use. Nothing here allocates or throws.

public enum Activation: Sendable, Hashable {
    case identity
    case relu
    case leakyRelu(alpha: Float)
    case sigmoid
    case tanh
}

extension Activation {
    /// Calls `body` with this activation as a function on vectors: one closure per case, so that
    /// the loop `body` runs is compiled with the activation inlined and no switch per vector.
    @inline(__always)
    func withVectorFunction(_ body: ((SIMD8<Float>) -> SIMD8<Float>) -> Void) {
        switch self {
        case .identity: body { $0 }
        case .relu: body { $0.rectified }
        case .leakyRelu(let alpha):
            let slope = SIMD8<Float>(repeating: alpha)
            body { $0.leakyRectified(slope: slope) }
        case .sigmoid: body { $0.logistic }
        case .tanh: body { $0.hyperbolicTangent }
        }
    }

    public func apply(
        _ input: UnsafePointer<Float>, to output: UnsafeMutablePointer<Float>, count: Int, bias: Float = 0
    ) {
        let shift = SIMD8<Float>(repeating: bias)
        withVectorFunction { activate in
            mapVectors(input, output, count) { activate($0 + shift) }
        }
    }

    public func apply(
        _ input: UnsafePointer<Float>, to output: UnsafeMutablePointer<Float>,
        rows: Int, columns: Int, columnBias: UnsafePointer<Float>?
    ) {
        guard let columnBias else {
            apply(input, to: output, count: rows * columns)
            return
        }
        withVectorFunction { activate in
            for row in 0..<rows {
                zipVectors(input + row * columns, columnBias, output + row * columns, columns) { activate($0 + $1) }
            }
        }
    }
}

extension SIMD8<Float> {
    @inline(__always)
    var rectified: SIMD8<Float> { self.replacing(with: 0, where: self .< 0) }

    @inline(__always)
    func leakyRectified(slope: SIMD8<Float>) -> SIMD8<Float> {
        self.replacing(with: self * slope, where: self .< SIMD8<Float>())
    }
}
