/// ONNX Slice: per listed axis, elements start, start+step, … before end. `starts`/`ends`/`axes`
/// are attributes before opset 10 and inputs (with `steps`) from 10. Negative indices count from
/// the end; out-of-range values (including INT64 extremes) are clamped without overflow.
struct Slice: Operator {
    let attributeStarts: [Int64]?
    let attributeEnds: [Int64]?
    let attributeAxes: [Int64]?
    let fromInputs: Bool

    init(_ attributes: NodeAttributes, opset: Int) throws {
        fromInputs = opset >= 10
        attributeStarts = fromInputs ? nil : try attributes.ints("starts")
        attributeEnds = fromInputs ? nil : try attributes.ints("ends")
        attributeAxes = fromInputs ? nil : try attributes.ints("axes")
    }

    var planTimeInputs: [Int] { fromInputs ? [1, 2, 3, 4] : [] }

    /// Per input axis: first index, element count and step.
    struct Window {
        var start: Int
        var count: Int
        var step: Int
    }

    func windows(for shape: [Int], inputs: [ValueDescriptor?]) throws -> [Window] {
        let starts = fromInputs ? try inputs.integerConstant(1, "starts") : attributeStarts
        let ends = fromInputs ? try inputs.integerConstant(2, "ends") : attributeEnds
        guard let starts, let ends, starts.count == ends.count else {
            throw OperatorError("starts and ends must be given with equal lengths")
        }
        let axes = (fromInputs ? try inputs.integerConstant(3, "axes") : attributeAxes) ?? (0..<Int64(starts.count)).map { $0 }
        let steps = (fromInputs ? try inputs.integerConstant(4, "steps") : nil) ?? [Int64](repeating: 1, count: starts.count)
        guard axes.count == starts.count, steps.count == starts.count else {
            throw OperatorError("starts, ends, axes and steps have different lengths")
        }
        var windows = shape.map { Window(start: 0, count: $0, step: 1) }
        var seen = Set<Int>()
        for index in starts.indices {
            let axis = try normalizedAxis(axes[index], rank: shape.count)
            guard seen.insert(axis).inserted else { throw OperatorError("axis \(axes[index]) repeated") }
            guard steps[index] != 0 else { throw OperatorError("step 0 on axis \(axis)") }
            let size = Int64(shape[axis])
            // A step longer than the axis takes at most one element, like a step of size + 1.
            let step = min(max(steps[index], -(size + 1)), size + 1)
            var start = starts[index]
            var end = ends[index]
            if start < 0 { start = start < -size ? -size - 1 : start + size }
            if end < 0 { end = end < -size ? -size - 1 : end + size }
            let count: Int64
            if step > 0 {
                start = min(max(start, 0), size)
                end = min(max(end, 0), size)
                count = end > start ? (end - start + step - 1) / step : 0
            } else {
                start = min(max(start, -1), size - 1)
                end = min(max(end, -1), size - 1)
                count = start > end ? (start - end - step - 1) / -step : 0
            }
            windows[axis] = Window(start: Int(max(start, 0)), count: Int(count), step: Int(step))
        }
        return windows
    }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let data = try inputs.required(0, "data")
        let windows = try windows(for: data.shape, inputs: inputs)
        return [ValueDescriptor(data.elementType, windows.map(\.count))]
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        let data = try inputs.required(0)
        // Inputs 1… are plan-time constants, so their tensors are their values.
        let windows = try windows(for: data.shape, inputs: inputs.map { $0.map { ValueDescriptor(constant: $0) } })
        let strides = contiguousStrides(of: data.shape)
        let copy = StridedCopy(
            counts: windows.map(\.count), sourceStrides: zip(strides, windows).map { $0 * $1.step },
            destinationStrides: contiguousStrides(of: outputs[0].shape), elementSize: data.elementType.byteCount)
        let offset = zip(strides, windows).reduce(0) { $0 + $1.0 * $1.1.start }
        return StridedCopyKernel(destination: outputs[0], parts: [.init(copy: copy, source: data, sourceOffset: offset, destinationOffset: 0)])
    }
}

extension Slice {
    /// Frame-local when it keeps every frame: slicing the time axis would select frames of a
    /// chunk, which differ from frames of the whole sequence.
    func streamingRole(in context: StreamingContext) throws -> StreamingRole {
        guard let data = context.input(0), let dataAxis = context.axis(data) else { return .frameLocal }
        for inputs in [context.inputDescriptors, context.longInputDescriptors] {
            guard let shape = inputs.first??.shape else { continue }
            let window = try context.operatorCall { try windows(for: shape, inputs: inputs)[dataAxis] }
            guard window.start == 0, window.step == 1, window.count == shape[dataAxis] else {
                throw context.refusal("it slices the time axis \(dataAxis) (start \(window.start), step \(window.step), \(window.count) of \(shape[dataAxis]) frames)")
            }
        }
        return .frameLocal
    }
}
