/// What the planner knows about a value: its element type, its concrete shape, and its contents
/// when they are known while planning (initializers, constants and everything folded from them).
struct ValueDescriptor: Sendable {
    var elementType: ElementType
    var shape: [Int]
    var constant: Tensor?

    init(_ elementType: ElementType, _ shape: [Int], constant: Tensor? = nil) {
        self.elementType = elementType
        self.shape = shape
        self.constant = constant
    }

    init(constant: Tensor) {
        self.init(constant.elementType, constant.shape, constant: constant)
    }
}

extension ValueDescriptor {
    /// The same type and shape, contents unknown (for a value computed at run time).
    var constantRemoved: ValueDescriptor { ValueDescriptor(elementType, shape) }
}
