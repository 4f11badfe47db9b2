import Protobuf
import Testing

/// Hand-made malformed wire data: every case must throw the named reason at the named offset.
struct MalformedWireTests {
    /// Reads every field of a flat message as the wire type says, as a decoder of an unknown
    /// message would.
    private func readAll(_ bytes: [UInt8]) throws {
        var reader = ProtobufReader(bytes)
        while let field = try reader.nextField() {
            try reader.skipValue(of: field)
        }
    }

    private func expectError(_ bytes: [UInt8], _ reason: ProtobufError.Reason, at offset: Int,
                             sourceLocation: SourceLocation = #_sourceLocation,
                             _ read: ([UInt8]) throws -> Void) {
        do {
            try read(bytes)
            Issue.record("no error for \(bytes)", sourceLocation: sourceLocation)
        } catch let error as ProtobufError {
            #expect(error.reason == reason, sourceLocation: sourceLocation)
            #expect(error.offset == offset, sourceLocation: sourceLocation)
            #expect(!error.description.contains("\n"), sourceLocation: sourceLocation)
            #expect(error.description.contains("byte \(offset)"), sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func everyTruncationOfATenByteVarint() {
        let full: [UInt8] = [0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]
        for length in 1..<full.count {
            expectError(Array(full[..<length]), .truncatedVarint, at: 1, readAll)
        }
    }

    @Test func overlongVarints() {
        // 11 bytes: continuation bit still set on the 10th.
        expectError([0x08] + Array(repeating: 0x80, count: 10) + [0x00], .overlongVarint, at: 1, readAll)
        // 10 bytes whose last one carries a bit beyond 2^64.
        expectError([0x08] + Array(repeating: 0xff, count: 9) + [0x02], .overlongVarint, at: 1, readAll)
        // An overlong tag.
        expectError(Array(repeating: 0x80, count: 11), .overlongVarint, at: 0, readAll)
    }

    @Test func lengthsPastTheEnd() {
        expectError([0x12, 0x05, 0x61], .truncated(needed: 5, available: 1), at: 2, readAll)
        let hugeLength: [UInt8] = [0x12, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]
        expectError(hugeLength, .truncated(needed: .max, available: 0), at: 11, readAll)
        expectError([0x0d, 0x00, 0x00], .truncated(needed: 4, available: 2), at: 1, readAll)
        expectError([0x09, 0x00, 0x00, 0x00], .truncated(needed: 8, available: 3), at: 1, readAll)
    }

    @Test func invalidWireTypesAndGroups() {
        expectError([0x0e, 0x00], .invalidWireType(6), at: 0, readAll)
        expectError([0x0f, 0x00], .invalidWireType(7), at: 0, readAll)
        expectError([0x08, 0x01, 0x0b, 0x0c], .groupNotSupported, at: 2, readAll)
        expectError([0x0c], .groupNotSupported, at: 0, readAll)
    }

    @Test func invalidFieldNumbers() {
        expectError([0x00, 0x01], .invalidFieldNumber(0), at: 0, readAll)
        // Field 2^29 (one past the largest), varint wire type: tag 2^32.
        expectError([0x80, 0x80, 0x80, 0x80, 0x10, 0x00], .invalidFieldNumber(1 << 29), at: 0, readAll)
    }

    @Test func packedRunsAreBoundedByTheirLength() {
        // The run is one byte long but that byte starts a two-byte varint.
        expectError([0x0a, 0x01, 0x96, 0x01], .truncatedVarint, at: 2) { bytes in
            var reader = ProtobufReader(bytes)
            var values: [Int64] = []
            while let field = try reader.nextField() { try reader.readRepeatedInt64(field, into: &values) }
        }
        expectError([0x0a, 0x03, 0x01, 0x02, 0x03], .packedLengthMismatch(length: 3, elementSize: 4), at: 1) { bytes in
            var reader = ProtobufReader(bytes)
            var values: [Float] = []
            while let field = try reader.nextField() { try reader.readRepeatedFloat(field, into: &values) }
        }
    }

    @Test func wrongWireTypeForAKnownField() {
        expectError([0x08, 0x01], .unexpectedWireType(.varint), at: 1) { bytes in
            var reader = ProtobufReader(bytes)
            while let field = try reader.nextField() { _ = try reader.readFloat(field) }
        }
        expectError([0x0d, 0x00, 0x00, 0x80, 0x3f], .unexpectedWireType(.fixed32), at: 1) { bytes in
            var reader = ProtobufReader(bytes)
            while let field = try reader.nextField() { _ = try reader.readBytes(field) }
        }
    }

    /// A nested message may not read past its own end, even when the outer buffer continues.
    @Test func nestedMessageIsBoundedByItsLength() {
        // Outer field 1 holds 2 bytes: a string field claiming 5 bytes, which only the outer buffer has.
        expectError([0x0a, 0x02, 0x12, 0x05, 0x61, 0x62, 0x63, 0x64, 0x65], .truncated(needed: 5, available: 0), at: 4) { bytes in
            var reader = ProtobufReader(bytes)
            while let field = try reader.nextField() {
                try reader.readMessage(field) { nested in
                    while let inner = try nested.nextField() { _ = try nested.readBytes(inner) }
                }
            }
        }
    }

    /// Messages nested through field 1, `levels` deep, and the size of each tag + length
    /// prefix from the outermost inwards.
    private func nestedMessages(_ levels: Int) -> (bytes: [UInt8], prefixSizes: [Int]) {
        var bytes: [UInt8] = []
        var prefixSizes: [Int] = []
        for _ in 0..<levels {
            var length = bytes.count
            var prefix: [UInt8] = [0x0a]
            while length >= 0x80 {
                prefix.append(UInt8(length & 0x7f) | 0x80)
                length >>= 7
            }
            prefix.append(UInt8(length))
            bytes = prefix + bytes
            prefixSizes.insert(prefix.count, at: 0)
        }
        return (bytes, prefixSizes)
    }

    private func depth(of reader: inout ProtobufReader) throws -> Int {
        var deepest = reader.depth
        while let field = try reader.nextField() {
            deepest = max(deepest, try reader.readMessage(field) { try depth(of: &$0) })
        }
        return deepest
    }

    @Test func nestingStopsAtTheLimit() throws {
        let limit = ProtobufReader.defaultMaxDepth
        var allowed = ProtobufReader(nestedMessages(limit).bytes)
        #expect(try depth(of: &allowed) == limit)

        // The reader refuses right after the tag of the first message beyond the limit.
        let tooDeep = nestedMessages(10_000)
        let offset = tooDeep.prefixSizes.prefix(limit).reduce(0, +) + 1
        expectError(tooDeep.bytes, .nestingTooDeep(limit: limit), at: offset) { bytes in
            var reader = ProtobufReader(bytes)
            _ = try depth(of: &reader)
        }
    }

    @Test func errorPathReadsOutermostFirst() {
        let error = ProtobufError(.truncatedVarint, offset: 17).inField("raw_data").inField("t").inField("attribute[0]")
        #expect(error.fieldPath == ["attribute[0]", "t", "raw_data"])
        #expect(error.description == "malformed protobuf: input ends inside a varint at byte 17 in attribute[0].t.raw_data")
    }
}
