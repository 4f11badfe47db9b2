import Foundation
import Inference
import Testing
import TestSupport

/// The .npy reader and writer against files numpy itself wrote (Scripts/gen-dfn3-ort.py):
/// arange(24) as [2, 3, 4] in each dtype and format version 1–3; bool holds multiples of 3.
struct NumPyFileTests {
    static func folder() throws -> URL { try RepositoryFiles.generated("dfn3-ort").appendingPathComponent("npy") }
    static let expected = (0..<24).map { $0 }

    @Test(arguments: ["float32", "float64", "int32", "int64", "bool"], [1, 2, 3])
    func readsWhatNumPyWrites(dtype: String, version: Int) throws {
        let tensor = try Tensor(numPyFile: try Self.folder().appendingPathComponent("\(dtype)-v\(version).npy").path)
        #expect(tensor.shape == [2, 3, 4])
        switch dtype {
        case "float32": #expect(try tensor.scalars(as: Float.self) == Self.expected.map { Float($0) })
        case "float64": #expect(try tensor.scalars(as: Double.self) == Self.expected.map { Double($0) })
        case "int32": #expect(try tensor.scalars(as: Int32.self) == Self.expected.map { Int32($0) })
        case "int64": #expect(try tensor.scalars(as: Int64.self) == Self.expected.map { Int64($0) })
        default: #expect(try tensor.scalars(as: Bool.self) == Self.expected.map { $0 % 3 == 0 })
        }
    }

    @Test(arguments: ["float32", "float64", "int32", "int64", "bool"])
    func writesWhatNumPyWrites(dtype: String) throws {
        // numpy's version-1 files are the reference byte for byte (header text, padding, data).
        let url = try Self.folder().appendingPathComponent("\(dtype)-v1.npy")
        let tensor = try Tensor(numPyFile: url.path)
        #expect(tensor.numPyBytes() == [UInt8](try Data(contentsOf: url)))
    }

    @Test func readsScalarsAndVectors() throws {
        let scalar = try Tensor(numPyFile: try Self.folder().appendingPathComponent("float32-scalar.npy").path)
        #expect(scalar.shape == [])
        #expect(try scalar.scalars(as: Float.self) == [2.5])
        let vector = try Tensor(numPyFile: try Self.folder().appendingPathComponent("float32-vector.npy").path)
        #expect(vector.shape == [5])
        #expect(try vector.scalars(as: Float.self) == [0, 1, 2, 3, 4])
        #expect(scalar.numPyBytes() == [UInt8](try Data(contentsOf: try Self.folder().appendingPathComponent("float32-scalar.npy"))))
        #expect(vector.numPyBytes() == [UInt8](try Data(contentsOf: try Self.folder().appendingPathComponent("float32-vector.npy"))))
    }

    @Test(arguments: [("float32-fortran.npy", "Fortran"), ("float32-bigendian.npy", ">f4"), ("uint8.npy", "|u1")])
    func refusesWhatItDoesNotSupport(file: String, mention: String) throws {
        let path = try Self.folder().appendingPathComponent(file).path
        do {
            _ = try Tensor(numPyFile: path)
            Issue.record("\(file) was accepted")
        } catch {
            #expect("\(error)".contains(mention) && "\(error)".contains(file), "\(error)")
        }
    }

    @Test func refusesTruncatedAndMalformedFiles() throws {
        let valid = [UInt8](try Data(contentsOf: try Self.folder().appendingPathComponent("float32-v1.npy")))
        for length in [0, 5, 9, 20, valid.count - 1] {
            #expect(throws: InferenceError.self) { _ = try Tensor(numPyBytes: Array(valid.prefix(length))) }
        }
        var badVersion = valid
        badVersion[6] = 9
        #expect(throws: InferenceError.self) { _ = try Tensor(numPyBytes: badVersion) }
        var hugeHeader = valid
        hugeHeader[8] = 0xFF
        hugeHeader[9] = 0xFF
        #expect(throws: InferenceError.self) { _ = try Tensor(numPyBytes: hugeHeader) }
    }
}
