// KernelParameterError — thrown by the kernels' validating initialisers (never by their run
// functions) when a parameter set cannot describe a valid computation.
//
//   public struct KernelParameterError: Error, CustomStringConvertible
//     kernel:  String   which kernel refused ("Conv", "ConvTranspose", "GEMM", "GRU")
//     message: String   what was wrong, with the offending values
//
// Sizes derived from caller input are computed with overflow checks here, once, so that the
// kernels' hot loops can use plain arithmetic on them.

public struct KernelParameterError: Error, CustomStringConvertible, Sendable, Equatable {
    public let kernel: String
    public let message: String

    public init(kernel: String, message: String) {
        self.kernel = kernel
        self.message = message
    }

    public var description: String { "\(kernel) kernel: \(message)" }
}

extension KernelParameterError {
    /// The product of `factors`, or an error naming `what` when it overflows `Int` or a
    /// factor is negative.
    static func checkedProduct(_ factors: [Int], of what: String, kernel: String) throws -> Int {
        var product = 1
        for factor in factors {
            guard factor >= 0 else {
                throw KernelParameterError(kernel: kernel, message: "\(what): negative factor \(factor) in \(factors)")
            }
            let (result, overflow) = product.multipliedReportingOverflow(by: factor)
            guard !overflow else {
                throw KernelParameterError(kernel: kernel, message: "\(what) overflows Int: \(factors)")
            }
            product = result
        }
        return product
    }

    /// The sum of non-negative `terms`, or an error naming `what` when it overflows `Int`.
    static func checkedSum(_ terms: [Int], of what: String, kernel: String) throws -> Int {
        var sum = 0
        for term in terms {
            let (result, overflow) = sum.addingReportingOverflow(term)
            guard !overflow else {
                throw KernelParameterError(kernel: kernel, message: "\(what) overflows Int: \(terms)")
            }
            sum = result
        }
        return sum
    }

    /// `value` as a BLAS dimension (`Int32`), or an error naming `what`.
    static func blasDimension(_ value: Int, of what: String, kernel: String) throws -> Int32 {
        guard let dimension = Int32(exactly: value), dimension >= 0 else {
            throw KernelParameterError(kernel: kernel, message: "\(what) = \(value) does not fit a BLAS dimension")
        }
        return dimension
    }

    /// Refuses a recurrent kernel's sizes unless T ≥ 0 and B, I, H ≥ 1.
    static func checkRecurrentSizes(
        sequenceLength: Int, batchSize: Int, inputSize: Int, hiddenSize: Int, kernel: String
    ) throws {
        guard sequenceLength >= 0, batchSize >= 1, inputSize >= 1, hiddenSize >= 1 else {
            throw KernelParameterError(
                kernel: kernel,
                message: "sequence length \(sequenceLength), batch \(batchSize), input size \(inputSize), hidden size \(hiddenSize): need T ≥ 0 and B, I, H ≥ 1")
        }
    }

    /// A recurrent kernel's output time stride: `requested`, by default one step's state (B·H,
    /// `state`), which it may not be below.
    static func outputTimeStride(_ requested: Int?, state: Int, kernel: String) throws -> Int {
        let timeStride = requested ?? state
        guard timeStride >= state else {
            throw KernelParameterError(kernel: kernel, message: "output time stride \(timeStride) is below B·H = \(state)")
        }
        return timeStride
    }
}
