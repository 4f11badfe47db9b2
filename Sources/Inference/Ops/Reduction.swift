/// The ONNX reductions of the `Reduce*` form (ReduceMean, ReduceMax): `data` reduced over
/// `axes`, which is an attribute before opset 18 and an optional input from 18. Without axes (or
/// with an empty list) every axis is reduced, unless `noop_with_empty_axes` (opset 18) asks for
/// the input unchanged. Reduced axes stay as 1 with `keepdims` (the default) and are dropped
/// without it. `Operation` says which element types it takes and how they combine.
struct Reduction<Operation: ReductionOperation>: Operator {
    let attributeAxes: [Int64]?
    let axesFromInput: Bool
    let keepDimensions: Bool
    let noopWithEmptyAxes: Bool

    init(_ attributes: NodeAttributes, opset: Int) throws {
        axesFromInput = opset >= 18
        attributeAxes = axesFromInput ? nil : try attributes.ints("axes")
        keepDimensions = try attributes.int("keepdims", default: 1) != 0
        noopWithEmptyAxes = try attributes.int("noop_with_empty_axes", default: 0) != 0
    }

    var planTimeInputs: [Int] { axesFromInput ? [1] : [] }

    /// The axes reduced for an input of `rank`.
    func reducedAxes(rank: Int, inputs: [ValueDescriptor?]) throws -> Set<Int> {
        let requested = (axesFromInput ? try inputs.integerConstant(1, "axes") : attributeAxes) ?? []
        let axes = try requested.map { try normalizedAxis($0, rank: rank) }
        guard Set(axes).count == axes.count else { throw OperatorError("repeated axis in \(requested)") }
        return requested.isEmpty ? (noopWithEmptyAxes ? [] : Set(0..<rank)) : Set(axes)
    }

    func layout(of shape: [Int], inputs: [ValueDescriptor?]) throws -> ReductionLayout {
        ReductionLayout(shape: shape, axes: try reducedAxes(rank: shape.count, inputs: inputs), keepDimensions: keepDimensions)
    }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let data = try inputs.required(0, "data")
        guard Operation.accepts(data.elementType) else { throw OperatorError(unsupported: "\(data.elementType) data") }
        return [ValueDescriptor(data.elementType, try layout(of: data.shape, inputs: inputs).outputShape)]
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        let data = try inputs.required(0)
        // Input 1 is a plan-time constant, so its tensor is its value.
        let layout = try layout(of: data.shape, inputs: inputs.map { $0.map { ValueDescriptor(constant: $0) } })
        return try Operation.makeKernel(data: data, output: outputs[0], layout: layout)
    }
}

/// One reduction of the `Reduce*` form: the element types it takes and its kernel for each.
protocol ReductionOperation: Sendable {
    static func accepts(_ elementType: ElementType) -> Bool
    static func makeKernel(data: Tensor, output: Tensor, layout: ReductionLayout) throws -> any Kernel
}

/// How a reduction combines elements of one type.
protocol Reducer {
    associatedtype Element: TensorElement
    /// The result of reducing no elements; every element is combined into it.
    static var identity: Element { get }
    static func combine(_ accumulated: Element, _ element: Element) -> Element
    /// The result from the combination of `count` elements (a mean divides by the count).
    static func finish(_ combined: Element, count: Int) -> Element
}

/// A float32 reducer that also combines eight lanes at once.
protocol FloatReducer: Reducer where Element == Float {
    static func combine(_ accumulated: SIMD8<Float>, _ elements: SIMD8<Float>) -> SIMD8<Float>
    /// The eight lanes combined into one value.
    static func combineLanes(_ lanes: SIMD8<Float>) -> Float
}

/// Reduces `data` into `output` element by element.
struct ReductionKernel<Combination: Reducer>: Kernel {
    let data: Tensor
    let output: Tensor
    let layout: ReductionLayout

    func execute() {
        let x = UnsafePointer(data.pointer(to: Combination.Element.self))
        let y = output.pointer(to: Combination.Element.self)
        y.update(repeating: Combination.identity, count: output.elementCount)
        layout.forEachRun { inputOffset, outputOffset, count, outputStride in
            if outputStride == 0 {
                var accumulated = y[outputOffset]
                for index in 0..<count { accumulated = Combination.combine(accumulated, x[inputOffset + index]) }
                y[outputOffset] = accumulated
            } else {
                for index in 0..<count {
                    y[outputOffset + index] = Combination.combine(y[outputOffset + index], x[inputOffset + index])
                }
            }
        }
        for index in 0..<output.elementCount {
            y[index] = Combination.finish(y[index], count: layout.reducedCount)
        }
    }
}

/// Reduces float32 `data` into `output` in SIMD8 steps: a reduced run (the trailing axes, as in a
/// mean over the last axis) into eight partial results combined at its end, a kept run (axes
/// after a reduced one) a vector of outputs at a time.
struct FloatReductionKernel<Combination: FloatReducer>: Kernel {
    let data: Tensor
    let output: Tensor
    let layout: ReductionLayout

    func execute() {
        let x = UnsafePointer(data.pointer(to: Float.self))
        let y = output.pointer(to: Float.self)
        y.update(repeating: Combination.identity, count: output.elementCount)
        layout.forEachRun { inputOffset, outputOffset, count, outputStride in
            let run = x + inputOffset
            if outputStride == 0 {
                var lanes = SIMD8<Float>(repeating: Combination.identity)
                let vectorCount = count & ~7
                for index in Swift.stride(from: 0, to: vectorCount, by: 8) {
                    lanes = Combination.combine(lanes, run.loadVector(at: index))
                }
                var accumulated = Combination.combine(y[outputOffset], Combination.combineLanes(lanes))
                for index in vectorCount..<count { accumulated = Combination.combine(accumulated, run[index]) }
                y[outputOffset] = accumulated
            } else {
                let target = y + outputOffset
                zipVectors(UnsafePointer(target), run, target, count, Combination.combine)
            }
        }
        for index in 0..<output.elementCount {
            y[index] = Combination.finish(y[index], count: layout.reducedCount)
        }
    }
}

extension Reduction {
    /// Frame-local unless it reduces over the time axis.
    func streamingRole(in context: StreamingContext) throws -> StreamingRole {
        guard let data = context.input(0), let timeAxis = context.axis(data) else { return .frameLocal }
        let axes = try context.operatorCall { try reducedAxes(rank: context.shape(data).count, inputs: context.inputDescriptors) }
        if axes.contains(timeAxis) { throw context.refusal("it reduces over the time axis \(timeAxis)") }
        return .frameLocal
    }
}
