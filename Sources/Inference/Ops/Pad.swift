/// ONNX Pad: `pads` = [begin_0, …, begin_n, end_0, …, end_n] (negative crops) around the input,
/// filled with `constant_value` ("constant" mode) or with the input's own elements: mirrored
/// without repeating the edge ("reflect", as an STFT pads its signal), the edge repeated ("edge")
/// or the far side continued ("wrap", opset 19). Attributes before opset 11, inputs from 11 (with
/// optional `axes` from 18).
struct Pad: Operator {
    enum Mode: String {
        case constant, reflect, edge, wrap

        /// The input index an output index `index` (already shifted by the begin padding) reads
        /// along an axis of `count` elements.
        func sourceIndex(_ index: Int, count: Int) -> Int {
            switch self {
            case .constant: return index
            case .edge: return min(max(index, 0), count - 1)
            case .wrap: return ((index % count) + count) % count
            case .reflect:
                guard count > 1 else { return 0 }
                let period = 2 * (count - 1)
                let folded = ((index % period) + period) % period
                return folded < count ? folded : period - folded
            }
        }
    }

    let mode: Mode
    let attributePads: [Int64]?
    let attributeValue: Float
    let fromInputs: Bool

    init(_ attributes: NodeAttributes, opset: Int) throws {
        let name = try attributes.string("mode") ?? "constant"
        guard let mode = Mode(rawValue: name), mode != .wrap || opset >= 19 else { throw OperatorError(unsupported: "mode \(name)") }
        self.mode = mode
        fromInputs = opset >= 11
        attributePads = fromInputs ? nil : try attributes.ints("pads")
        attributeValue = fromInputs ? 0 : try attributes.float("value", default: 0)
    }

    var planTimeInputs: [Int] { fromInputs ? [1, 3] : [] }

    /// Begin and end padding per axis.
    func padding(rank: Int, inputs: [ValueDescriptor?]) throws -> (begin: [Int], end: [Int]) {
        guard let pads = fromInputs ? try inputs.integerConstant(1, "pads") : attributePads else {
            throw OperatorError("missing pads")
        }
        let axes = try (fromInputs ? try inputs.integerConstant(3, "axes") : nil)?.map { try normalizedAxis($0, rank: rank) }
            ?? Array(0..<rank)
        guard pads.count == 2 * axes.count else { throw OperatorError("pads \(pads) do not match \(axes.count) axes") }
        guard pads.allSatisfy({ abs($0) <= Int64(Int32.max) }) else { throw OperatorError("pads \(pads) out of range") }
        var begin = [Int](repeating: 0, count: rank)
        var end = [Int](repeating: 0, count: rank)
        for (index, axis) in axes.enumerated() {
            begin[axis] = Int(pads[index])
            end[axis] = Int(pads[index + axes.count])
        }
        return (begin, end)
    }

    func outputs(for inputs: [ValueDescriptor?]) throws -> [ValueDescriptor] {
        let data = try inputs.required(0, "data")
        let (begin, end) = try padding(rank: data.shape.count, inputs: inputs)
        let shape = data.shape.indices.map { data.shape[$0] + begin[$0] + end[$0] }
        guard shape.allSatisfy({ $0 >= 0 }) else { throw OperatorError("pads crop input shape \(data.shape) below zero") }
        if mode != .constant, let empty = data.shape.indices.first(where: { data.shape[$0] == 0 && shape[$0] > 0 }) {
            throw OperatorError("\(mode.rawValue) padding needs input elements, axis \(empty) has none")
        }
        return [ValueDescriptor(data.elementType, shape)]
    }

    func makeKernel(inputs: [Tensor?], outputs: [Tensor]) throws -> any Kernel {
        let data = try inputs.required(0)
        let output = outputs[0]
        let (begin, end) = try padding(rank: data.rank, inputs: inputs.map { $0.map { ValueDescriptor(constant: $0) } })
        if mode != .constant {
            let sources = output.shape.indices.map { axis in
                (0..<output.shape[axis]).map { mode.sourceIndex($0 - begin[axis], count: data.shape[axis]) }
            }
            return IndexedPadKernel(input: data, output: output, sourceIndices: sources)
        }
        // The fill value is read when the kernel runs: constant_value may be a run-time input.
        let fill: Tensor
        if fromInputs, inputs.count > 2, let value = inputs[2] {
            guard value.elementType == data.elementType, value.elementCount == 1 else {
                throw OperatorError("constant_value must be one \(data.elementType), got \(value.elementType) \(value.shape)")
            }
            fill = value
        } else {
            fill = try Tensor(zeros: data.elementType, shape: [])
            if data.elementType == .float32 { fill.pointer(to: Float.self).pointee = attributeValue }
        }
        let sourceStrides = contiguousStrides(of: data.shape)
        let destinationStrides = contiguousStrides(of: output.shape)
        var counts: [Int] = []
        var sourceOffset = 0
        var destinationOffset = 0
        for axis in data.shape.indices {
            counts.append(max(0, data.shape[axis] + min(begin[axis], 0) + min(end[axis], 0)))
            sourceOffset += max(0, -begin[axis]) * sourceStrides[axis]
            destinationOffset += max(0, begin[axis]) * destinationStrides[axis]
        }
        let copy = StridedCopy(
            counts: counts, sourceStrides: sourceStrides, destinationStrides: destinationStrides,
            elementSize: data.elementType.byteCount)
        return StridedCopyKernel(
            destination: output, parts: [.init(copy: copy, source: data, sourceOffset: sourceOffset, destinationOffset: destinationOffset)],
            fill: fill)
    }
}

extension Pad {
    /// Frame-local unless it pads the time axis. Zeros padded in front of the time axis, feeding
    /// only time convolutions whose extent they complete, are a causal history: the previous
    /// frames, carried between calls. Padding the end of time would need future frames.
    func streamingRole(in context: StreamingContext) throws -> StreamingRole {
        guard let data = context.input(0), let timeAxis = context.axis(data), let output = context.output else {
            throw context.refusal("only its pads or value change along time")
        }
        let rank = context.shape(data).count
        var padding: (begin: [Int], end: [Int]) = ([], [])
        for inputs in [context.inputDescriptors, context.longInputDescriptors] {
            let found = try context.operatorCall { try self.padding(rank: rank, inputs: inputs) }
            if !padding.begin.isEmpty && (found.begin != padding.begin || found.end != padding.end) {
                throw context.refusal("its pads depend on the chunk length")
            }
            padding = found
        }
        let (begin, end) = (padding.begin[timeAxis], padding.end[timeAxis])
        if end > 0 { throw context.refusal("it pads the end of the time axis by \(end) frames, which needs future frames") }
        if mode != .constant && begin != 0 { throw context.refusal("it pads the time axis in \(mode.rawValue) mode, from frames of the chunk itself") }
        if begin < 0 || end < 0 { throw context.refusal("it crops the time axis (pads \(begin), \(end))") }
        if begin == 0 { return .frameLocal }
        if let value = context.input(2) {
            guard let constant = context.analysis.descriptors[value]?.constant, constant.elementType == .float32,
                  constant.pointer(to: Float.self).pointee == 0
            else { throw context.refusal("its padding value is not a constant zero") }
        } else if attributeValue != 0 {
            throw context.refusal("it pads with \(attributeValue), not zero")
        }
        if context.graph.outputs.contains(output) { throw context.refusal("its padded output is a graph output") }
        let readers = context.consumers[output]
        if readers.isEmpty { throw context.refusal("its padded output is never read") }
        for reader in readers.map({ context.graph.nodes[$0] }) {
            func misfit(_ why: String) -> StreamingError {
                context.refusal("a causal time pad of \(begin) frames must feed only time convolutions it completes, but '\(reader.name)' (\(reader.opType)) \(why)")
            }
            guard reader.opType == "Conv", let conv = reader.op as? Conv else { throw misfit("is not a Conv") }
            guard reader.inputs.first == output, reader.inputs.dropFirst().allSatisfy({ $0 != output }) else {
                throw misfit("reads it as weights or bias")
            }
            guard timeAxis >= 2, let weights = reader.inputs.count > 1 ? reader.inputs[1] : nil else {
                throw misfit("has the time axis as batch or channel axis")
            }
            let geometry = try context.operatorCall { try conv.geometry(context.shape(output), context.shape(weights)) }
            let spatial = timeAxis - 2
            let extent = (geometry.kernel[spatial] - 1) * geometry.dilations[spatial] + 1
            guard geometry.strides[spatial] == 1 else { throw misfit("has time stride \(geometry.strides[spatial])") }
            guard geometry.padsBegin[spatial] == 0, geometry.padsEnd[spatial] == 0 else {
                throw misfit("pads time itself (\(geometry.padsBegin[spatial]), \(geometry.padsEnd[spatial]))")
            }
            guard extent == begin + 1 else { throw misfit("spans \(extent) frames, not \(begin + 1)") }
        }
        var otherBegin = padding.begin
        var otherEnd = padding.end
        otherBegin[timeAxis] = 0
        otherEnd[timeAxis] = 0
        return .causalHistory(CausalHistory(data: data, axis: timeAxis, frames: begin, otherBegin: otherBegin, otherEnd: otherEnd))
    }
}

/// Pad's reflect, edge and wrap modes: every output element copies the input element whose index
/// along each axis the mode gives. Where each output row (the last axis) starts reading, and which
/// element each column reads, are worked out when the kernel is bound.
struct IndexedPadKernel: Kernel {
    let input: Tensor
    let output: Tensor
    /// Per output row, the input element its columns index from.
    let rowOffsets: [Int]
    /// Per output column, the input column it reads.
    let columns: [Int]

    /// `sourceIndices`: per axis, the input index of each output index.
    init(input: Tensor, output: Tensor, sourceIndices: [[Int]]) {
        self.input = input
        self.output = output
        let strides = contiguousStrides(of: input.shape)
        var offsets = [0]
        for axis in sourceIndices.indices.dropLast() {
            offsets = offsets.flatMap { base in sourceIndices[axis].map { base + $0 * strides[axis] } }
        }
        rowOffsets = offsets
        columns = sourceIndices.last ?? [0]
    }

    func execute() {
        // Whole elements as words of their width: a byte copy call per element costs several
        // times the move, and a reflect pad moves hundreds of single elements.
        switch input.elementType.byteCount {
        case 8: copy(UInt64.self)
        case 4: copy(UInt32.self)
        default: copy(UInt8.self)
        }
    }

    @inline(__always)
    private func copy<Word: FixedWidthInteger>(_: Word.Type) {
        let size = MemoryLayout<Word>.size
        let source = UnsafeRawPointer(input.bytes)
        var destination = output.bytes
        rowOffsets.withUnsafeBufferPointer { rows in
            columns.withUnsafeBufferPointer { columns in
                for row in rows {
                    let line = source + row * size
                    for (index, column) in columns.enumerated() {
                        destination.storeBytes(of: line.loadUnaligned(fromByteOffset: column * size, as: Word.self), toByteOffset: index * size, as: Word.self)
                    }
                    destination += columns.count * size
                }
            }
        }
    }
}
