import Glibc

/// A dense n-dimensional array: element type, shape and contiguous row-major storage.
///
/// A `Tensor` is a value whose storage is shared by reshaped views; kernels write into
/// the storage of tensors the executor allocated when it planned, so treat a tensor you got from
/// an executor as read-only once the next run starts.
public struct Tensor: @unchecked Sendable {
    public let elementType: ElementType
    public let shape: [Int]
    public let elementCount: Int
    let storage: TensorStorage

    /// A zero-filled tensor. Throws when the shape has a negative dimension, or when the tensor
    /// would not fit in physical memory (a model or input asking for that is refused, not run
    /// into an out-of-memory kill).
    public init(zeros elementType: ElementType, shape: [Int]) throws {
        let count = try Tensor.elementCount(of: shape)
        let (bytes, overflow) = count.multipliedReportingOverflow(by: elementType.byteCount)
        guard !overflow, bytes <= Tensor.physicalMemory else {
            throw InferenceError.invalidShape("shape \(shape) of \(elementType) does not fit in memory")
        }
        self.elementType = elementType
        self.shape = shape
        self.elementCount = count
        storage = TensorStorage(byteCount: bytes)
    }

    /// A tensor holding `scalars` in row-major order.
    public init<Element: TensorElement>(shape: [Int], scalars: [Element]) throws {
        try self.init(zeros: Element.elementType, shape: shape)
        guard scalars.count == elementCount else {
            throw InferenceError.invalidShape("\(scalars.count) values do not fill shape \(shape)")
        }
        let destination = storage.bytes.assumingMemoryBound(to: Element.self)
        scalars.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            destination.update(from: base, count: source.count)
        }
    }

    /// A rank-0 tensor.
    public init<Element: TensorElement>(scalar: Element) {
        // A one-element shape cannot fail.
        self = (try? Tensor(shape: [], scalars: [scalar]))!
    }

    init(elementType: ElementType, shape: [Int], elementCount: Int, storage: TensorStorage) {
        self.elementType = elementType
        self.shape = shape
        self.elementCount = elementCount
        self.storage = storage
    }

    public var rank: Int { shape.count }

    /// The elements in row-major order; `Element` must be this tensor's element type.
    public func scalars<Element: TensorElement>(as type: Element.Type = Element.self) throws -> [Element] {
        guard Element.elementType == elementType else {
            throw InferenceError.typeMismatch("tensor holds \(elementType), not \(Element.elementType)")
        }
        return Array(UnsafeBufferPointer(start: storage.bytes.assumingMemoryBound(to: Element.self), count: elementCount))
    }

    /// The elements converted to Int64 (floats truncated toward zero, out-of-range as 0).
    public func integerValues() -> [Int64] {
        switch elementType {
        case .int64: return Array(UnsafeBufferPointer(start: pointer(to: Int64.self), count: elementCount))
        case .int32: return UnsafeBufferPointer(start: pointer(to: Int32.self), count: elementCount).map { Int64($0) }
        case .bool: return UnsafeBufferPointer(start: pointer(to: Bool.self), count: elementCount).map { $0 ? 1 : 0 }
        case .float32:
            return UnsafeBufferPointer(start: pointer(to: Float.self), count: elementCount).map { Int64(exactly: $0.rounded(.towardZero)) ?? 0 }
        case .float64:
            return UnsafeBufferPointer(start: pointer(to: Double.self), count: elementCount).map { Int64(exactly: $0.rounded(.towardZero)) ?? 0 }
        }
    }

    /// Typed pointer to the first element; the caller guarantees `Element` matches `elementType`.
    @inline(__always)
    func pointer<Element>(to type: Element.Type) -> UnsafeMutablePointer<Element> {
        storage.bytes.assumingMemoryBound(to: Element.self)
    }

    var bytes: UnsafeMutableRawPointer { storage.bytes }
    var byteCount: Int { elementCount * elementType.byteCount }

    /// The same storage seen with another shape of equal element count.
    func reshaped(to newShape: [Int]) -> Tensor {
        Tensor(elementType: elementType, shape: newShape, elementCount: elementCount, storage: storage)
    }

    /// A deep copy with its own storage.
    public func copy() -> Tensor {
        let result = Tensor(
            elementType: elementType, shape: shape, elementCount: elementCount,
            storage: TensorStorage(byteCount: byteCount))
        result.bytes.copyMemory(from: bytes, byteCount: byteCount)
        return result
    }

    /// Bytes of physical memory: the largest single tensor the engine will try to allocate.
    static let physicalMemory: Int = {
        let pages = sysconf(Int32(_SC_PHYS_PAGES))
        let size = sysconf(Int32(_SC_PAGESIZE))
        return pages > 0 && size > 0 ? pages.multipliedReportingOverflow(by: size).partialValue : Int.max
    }()

    /// Number of elements of `shape`; throws on a negative dimension or overflow.
    static func elementCount(of shape: [Int]) throws -> Int {
        var count = 1
        for dimension in shape {
            guard dimension >= 0 else { throw InferenceError.invalidShape("negative dimension in shape \(shape)") }
            let (product, overflow) = count.multipliedReportingOverflow(by: dimension)
            guard !overflow else {
                throw InferenceError.invalidShape("shape \(shape) has too many elements")
            }
            count = product
        }
        return count
    }
}
