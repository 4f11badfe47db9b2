import Foundation

/// What Scripts/gen-metrics-references.py wrote into Tests/Fixtures/generated/metrics-references:
/// real clean/degraded speech clips and the reference implementations' scores of them (pystoi,
/// mir_eval, numpy, speechmos, silero-vad's wrapper on onnxruntime).
public enum MetricsReferences {
    public static let directory = RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/generated/metrics-references")

    /// One clean/degraded pair of intrusive.json.
    public struct IntrusiveCase: Decodable, Sendable, CustomStringConvertible {
        public let clean: String
        public let degraded: String
        public let sampleRate: Int
        public let stoi: Double
        public let estoi: Double
        public let siSDR: Double
        public let sdr: Double
        public let snr: Double

        enum CodingKeys: String, CodingKey {
            case clean, degraded, stoi, estoi
            case sampleRate = "sample_rate", siSDR = "si_sdr_db", sdr = "sdr_db", snr = "snr_db"
        }

        public var description: String { "\(degraded) against \(clean)" }
    }

    /// One clip of dnsmos.json.
    public struct DNSMOSCase: Decodable, Sendable, CustomStringConvertible {
        public let file: String
        public let sampleRate: Int
        public let input: String
        public let sig: Double
        public let bak: Double
        public let ovrl: Double
        public let p808: Double

        enum CodingKeys: String, CodingKey {
            case file, input, sig, bak, ovrl, p808
            case sampleRate = "sample_rate"
        }

        public var description: String { file }
    }

    /// One clip of vad.json.
    public struct VADCase: Decodable, Sendable, CustomStringConvertible {
        public let file: String
        public let sampleRate: Int
        public let modelRate: Int
        public let step: Int
        public let resampled: Bool
        public let probabilities: [Double]
        public let segments: [[Int]]

        enum CodingKeys: String, CodingKey {
            case file, step, resampled, probabilities, segments
            case sampleRate = "sample_rate", modelRate = "model_rate"
        }

        public var description: String { file }
    }

    public static func url(_ file: String) throws -> URL {
        let url = directory.appendingPathComponent(file)
        guard FileManager.default.fileExists(atPath: url.path) else { throw RepositoryFiles.Missing(path: url.path) }
        return url
    }

    public static func cases<Case: Decodable>(_ file: String, as type: Case.Type) throws -> [Case] {
        try JSONDecoder().decode([Case].self, from: Data(contentsOf: url(file)))
    }
}
