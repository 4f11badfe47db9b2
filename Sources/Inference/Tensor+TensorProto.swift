import ONNX

extension Tensor {
    /// The tensor an ONNX `TensorProto` holds, from `raw_data` (little-endian) or the typed field.
    /// Throws for an unsupported element type, negative dims, or a payload of the wrong size.
    public init(proto: TensorProto) throws {
        let label = proto.name.isEmpty ? "tensor" : "tensor '\(proto.name)'"
        guard let elementType = ElementType(onnxType: proto.dataType) else {
            throw InferenceError.unsupportedElementType("\(label) has element type \(proto.dataType)")
        }
        var shape: [Int] = []
        for dim in proto.dims {
            guard dim >= 0, dim <= Int64(Int32.max) else {
                throw InferenceError.invalidShape("\(label) has dimension \(dim)")
            }
            shape.append(Int(dim))
        }
        // The dims are only a claim: check the payload holds that many elements before allocating,
        // or a 100-byte model declaring 4 GB of zeros would get them (found by ModelReaderFuzzer).
        let count = try Tensor.elementCount(of: shape)
        let payloadCount = if let raw = proto.rawData {
            raw.count / elementType.byteCount
        } else {
            switch elementType {
            case .float32: proto.floatData.count
            case .float64: proto.doubleData.count
            case .int32, .bool: proto.int32Data.count
            case .int64: proto.int64Data.count
            }
        }
        guard payloadCount >= count else {
            throw InferenceError.invalidShape("\(label): \(payloadCount) elements stored, dims \(shape) need \(count)")
        }
        try self.init(zeros: elementType, shape: shape)
        if let raw = proto.rawData {
            guard raw.count == byteCount else {
                throw InferenceError.invalidShape("\(label): raw_data has \(raw.count) bytes, dims \(shape) of \(elementType) need \(byteCount)")
            }
            let destination = bytes
            raw.withUnsafeBytes { source in
                if let base = source.baseAddress { destination.copyMemory(from: base, byteCount: source.count) }
            }
            if elementType == .bool {
                // Normalise any non-zero byte to `true` so that the storage is a valid Swift Bool.
                let flags = bytes.assumingMemoryBound(to: UInt8.self)
                for index in 0..<count where flags[index] > 1 { flags[index] = 1 }
            }
            return
        }
        func fill<Source, Element: TensorElement>(_ values: [Source], _ convert: (Source) -> Element) throws {
            guard values.count == count else {
                throw InferenceError.invalidShape("\(label): \(values.count) values for dims \(shape)")
            }
            let destination = pointer(to: Element.self)
            for (index, value) in values.enumerated() { destination[index] = convert(value) }
        }
        switch elementType {
        case .float32: try fill(proto.floatData) { $0 }
        case .float64: try fill(proto.doubleData) { $0 }
        case .int32: try fill(proto.int32Data) { $0 }
        case .int64: try fill(proto.int64Data) { $0 }
        case .bool: try fill(proto.int32Data) { $0 != 0 }
        }
    }

    /// This tensor as a `TensorProto` with `raw_data`.
    public func proto(named name: String = "") -> TensorProto {
        var proto = TensorProto()
        proto.name = name
        proto.dims = shape.map { Int64($0) }
        proto.dataType = elementType.onnxType
        proto.rawData = ArraySlice(UnsafeRawBufferPointer(start: bytes, count: byteCount))
        return proto
    }
}
