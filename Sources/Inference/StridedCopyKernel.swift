/// A kernel made of strided copies between bound tensors, optionally after filling the output
/// with one repeated element (Pad). Offsets are in elements.
struct StridedCopyKernel: Kernel {
    struct Part {
        let copy: StridedCopy
        let source: Tensor
        let sourceOffset: Int
        let destinationOffset: Int
    }

    let destination: Tensor
    let parts: [Part]
    /// One element's bytes written to every output element before the copies (nil: no fill).
    let fill: Tensor?

    init(destination: Tensor, parts: [Part], fill: Tensor? = nil) {
        self.destination = destination
        self.parts = parts
        self.fill = fill
    }

    func execute() {
        let size = destination.elementType.byteCount
        if let fill {
            let count = destination.elementCount
            switch size {
            case 1: destination.bytes.initializeMemory(as: UInt8.self, repeating: fill.bytes.load(as: UInt8.self), count: count)
            case 4: destination.bytes.initializeMemory(as: UInt32.self, repeating: fill.bytes.load(as: UInt32.self), count: count)
            default: destination.bytes.initializeMemory(as: UInt64.self, repeating: fill.bytes.load(as: UInt64.self), count: count)
            }
        }
        // Borrowed in place: iterating the array would copy each part, retaining and releasing
        // its arrays and its tensor's storage on every run (a small copy's main cost).
        parts.withUnsafeBufferPointer { parts in
            for index in parts.indices {
                parts[index].copy.run(
                    from: parts[index].source.bytes + parts[index].sourceOffset * size,
                    to: destination.bytes + parts[index].destinationOffset * size)
            }
        }
    }
}
