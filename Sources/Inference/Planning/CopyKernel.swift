/// Copies a computed value into the tensor a caller asked the output to be written to, where no
/// kernel of the plan writes it there itself.
struct CopyKernel: Kernel {
    let source: Tensor
    let destination: Tensor

    func execute() {
        destination.bytes.copyMemory(from: source.bytes, byteCount: destination.byteCount)
    }
}
