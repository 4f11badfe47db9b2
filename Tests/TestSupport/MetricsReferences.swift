import Foundation

/// What Scripts/gen-metrics-references.py wrote into Tests/Fixtures/generated/metrics-references:
/// real clean/degraded speech clips and the reference implementations' scores of them (pystoi,
/// mir_eval, numpy, speechmos, silero-vad's wrapper on onnxruntime).
public enum MetricsReferences {
    public static let directory = RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/generated/metrics-references")

    /// How close our STOI and ESTOI must be to pystoi's: the bound. Both sides compute in
    /// float64 from the same float32 samples; only the order of summation differs (pystoi's pairwise
    /// sums against our running ones, FFTs of other factorisations), worth ~1e-13 of a score. A wrong
    /// frame count, band edge, window or resampling filter moves a score by 1e-3 or more.
    public static let intelligibilityTolerance = Tolerance(absolute: 1e-5)

    /// How close our SI-SDR, SDR and SNR must be to numpy's and mir_eval's, in dB: float64 sums in
    /// another order (see DistortionRatioTests for what the two sides compute), measured ≤ 4e-12 dB.
    public static let distortionRatioTolerance = Tolerance.doubleUnits

    /// How close our DNSMOS scores must be to speechmos's, in MOS: the bound. The graphs
    /// match onnxruntime to 1e-5 of their outputs' scale (ModelReferenceTests), the P.808 features
    /// to 2e-5 (MelSpectrogramTests), and the fits map a raw score x to ≤ 1.6·x: together a few 1e-4
    /// MOS at most; a wrong window, feature or fit costs 0.05 MOS or more.
    public static let dnsmosTolerance = Tolerance(absolute: 0.005)

    /// How close our speech probabilities must be to silero-vad's on onnxruntime: the bound.
    /// The graph matches onnxruntime to 1e-5 of a probability per chunk over 300 carried chunks
    /// (ModelReferenceTests); over a 20 s clip's 625 chunks the carried state keeps rounding from
    /// growing (the LSTM forgets). The 44.1 kHz clip is resampled by Debian's libsoxr here and
    /// python-soxr's there, equal to 1e-5 per sample (SoxrResamplerTests). A wrong context or
    /// padding moves probabilities by 1e-2 or more.
    public static let voiceActivityTolerance = Tolerance(absolute: 1e-4)

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
