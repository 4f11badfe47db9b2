import Foundation
import Inference
import ONNX
import Testing

/// Regression tests for inputs whose headers claim more data than they hold: the readers used
/// to allocate (and zero-fill) the claimed size before finding the payload short, so a file of
/// a few hundred bytes cost gigabytes (ModelReaderFuzzer: an initializer claiming 4 GB).
/// The claim here is 4 GiB; the process's peak resident size must grow by less than 1 GiB
/// (the rest of the test process may run in parallel and allocate, but not gigabytes).
struct ClaimedSizeRegressionTests {
    static let claimedElements = 1 << 30

    /// Peak resident set size of this process in bytes (Linux reports kilobytes).
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }

    @Test func initializerClaimingGigabytesIsRefusedBeforeAllocating() throws {
        var proto = TensorProto()
        proto.name = "w"
        proto.dataType = .float
        proto.dims = [Int64(Self.claimedElements)]
        proto.rawData = [0, 0, 128, 63][...]
        let before = Self.peakResidentBytes()
        #expect { try Tensor(proto: proto) } throws: { "\($0)".contains("tensor 'w'") }
        proto.rawData = nil
        proto.floatData = [1]
        #expect { try Tensor(proto: proto) } throws: { "\($0)".contains("tensor 'w'") }
        #expect(Self.peakResidentBytes() - before < 1 << 30)
    }

    @Test func numPyHeaderClaimingGigabytesIsRefusedBeforeAllocating() throws {
        var header = "{'descr': '<f4', 'fortran_order': False, 'shape': (\(Self.claimedElements),), }"
        header += String(repeating: " ", count: (64 - (10 + header.count + 1) % 64) % 64) + "\n"
        let bytes: [UInt8] = [0x93] + Array("NUMPY".utf8) + [1, 0, UInt8(header.utf8.count), 0] + Array(header.utf8) + [0, 0, 128, 63]
        let before = Self.peakResidentBytes()
        #expect { try Tensor(numPyBytes: bytes, path: "claim.npy") } throws: {
            "\($0)".contains("claim.npy") && "\($0)".contains("data has 4 bytes")
        }
        #expect(Self.peakResidentBytes() - before < 1 << 30)
    }
}
