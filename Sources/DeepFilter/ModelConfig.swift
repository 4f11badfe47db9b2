import Foundation

/// The signal-chain parameters a DeepFilterNet model bundle declares in its `config.ini`.
public struct ModelConfig: Sendable, Equatable {
    public var sampleRate: Int
    public var fftSize: Int
    public var hopSize: Int
    public var erbBandCount: Int
    /// Low bins processed by the deep filter (`nb_df`).
    public var deepFilterBinCount: Int
    public var deepFilterOrder: Int
    public var deepFilterLookahead: Int
    public var convolutionLookahead: Int
    /// Time constant of the feature normalisers, in seconds.
    public var normalizationTau: Float
    public var lsnrMin: Float
    public var lsnrMax: Float
    public var minimumBinsPerERBBand: Int

    /// Reads the keys of `[df]` and `[deepfilternet]`; `source` names the file in errors.
    public init(ini: INIFile, source: String) throws {
        func text(_ section: String, _ key: String) throws -> String {
            guard let value = ini.value(section: section, key: key) else {
                throw ModelBundleError.missingConfigKey(file: source, section: section, key: key)
            }
            return value
        }
        func integer(_ section: String, _ key: String, minimum: Int) throws -> Int {
            let value = try text(section, key)
            guard let number = Int(value), number >= minimum else {
                throw ModelBundleError.invalidConfigValue(file: source, section: section, key: key, value: value,
                                                          expected: "an integer ≥ \(minimum)")
            }
            return number
        }
        func real(_ section: String, _ key: String) throws -> Float {
            let value = try text(section, key)
            guard let number = Float(value), number.isFinite else {
                throw ModelBundleError.invalidConfigValue(file: source, section: section, key: key, value: value,
                                                          expected: "a finite number")
            }
            return number
        }
        sampleRate = try integer("df", "sr", minimum: 1)
        fftSize = try integer("df", "fft_size", minimum: 2)
        hopSize = try integer("df", "hop_size", minimum: 1)
        erbBandCount = try integer("df", "nb_erb", minimum: 1)
        deepFilterBinCount = try integer("df", "nb_df", minimum: 1)
        deepFilterOrder = try integer("df", "df_order", minimum: 1)
        deepFilterLookahead = try integer("df", "df_lookahead", minimum: 0)
        convolutionLookahead = try integer("deepfilternet", "conv_lookahead", minimum: 0)
        normalizationTau = try real("df", "norm_tau")
        lsnrMin = try real("df", "lsnr_min")
        lsnrMax = try real("df", "lsnr_max")
        minimumBinsPerERBBand = try integer("df", "min_nb_erb_freqs", minimum: 1)

        guard fftSize == 2 * hopSize else {
            throw ModelBundleError.unsupportedConfig(file: source, reason: "fft_size \(fftSize) must be twice hop_size \(hopSize) (50 % overlap)")
        }
        guard deepFilterBinCount <= fftSize / 2 + 1, erbBandCount <= fftSize / 2 + 1 else {
            throw ModelBundleError.unsupportedConfig(file: source, reason: "nb_df \(deepFilterBinCount) and nb_erb \(erbBandCount) must not exceed the \(fftSize / 2 + 1) frequency bins")
        }
        guard deepFilterLookahead < deepFilterOrder else {
            throw ModelBundleError.unsupportedConfig(file: source, reason: "df_lookahead \(deepFilterLookahead) must be below df_order \(deepFilterOrder)")
        }
        guard normalizationTau > 0 else {
            throw ModelBundleError.invalidConfigValue(file: source, section: "df", key: "norm_tau", value: "\(normalizationTau)", expected: "positive")
        }
    }

    /// Reads and parses the `config.ini` at `path`.
    public init(contentsOfFile path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { throw ModelBundleError.missingFile(path: path) }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ModelBundleError.unreadableFile(path: path, reason: "not UTF-8 text")
        }
        try self.init(ini: INIFile(parsing: text, source: path), source: path)
    }

    public var binCount: Int { fftSize / 2 + 1 }

    /// Frames the runtime looks ahead: `max(conv_lookahead, df_lookahead)`.
    public var lookahead: Int { max(convolutionLookahead, deepFilterLookahead) }

    /// Algorithmic delay of the real-time chain in samples: `fft_size − hop_size + lookahead·hop_size`.
    public var latencySamples: Int { fftSize - hopSize + lookahead * hopSize }
}
