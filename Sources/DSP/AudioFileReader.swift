import CSndFile
import Foundation

/// Reads any file libsndfile can decode (WAV 8/16/24/32-bit integer or 32/64-bit float, FLAC,
/// AIFF, Ogg/Vorbis, …) as Float samples, integer formats scaled to [−1, 1). Reading can be
/// chunked (`read(into:)`/`readChunk(maximumFrames:)`), so long files never have to be held whole.
public final class AudioFileReader {
    public let path: String
    public let sampleRate: Int
    public let channelCount: Int
    public let frameCount: Int
    /// libsndfile's major/subtype format code (`SF_FORMAT_*`).
    public let format: Int32
    public static let maximumChannelCount = 64
    public static let sampleRates = 1...768_000

    private let file: OpaquePointer

    /// Opens `path` and checks that it holds audio we can use.
    /// - Throws: `AudioFileError` naming the file: empty file, libsndfile's reason for refusing it,
    ///   zero frames, a channel count outside 1…64, or a sample rate outside 1…768 000 Hz.
    public init(path: String) throws {
        self.path = path
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        if size == 0 {
            throw AudioFileError(path: path, reason: "empty file (0 bytes)")
        }
        var info = SF_INFO()
        guard let file = sf_open(path, Int32(SFM_READ), &info) else {
            throw AudioFileError(path: path, reason: String(cString: sf_strerror(nil)))
        }
        guard info.frames > 0 else {
            sf_close(file)
            throw AudioFileError(path: path, reason: "contains zero frames of audio")
        }
        guard (1...Self.maximumChannelCount).contains(Int(info.channels)) else {
            sf_close(file)
            throw AudioFileError(path: path, reason: "unsupported channel count \(info.channels) "
                + "(1…\(Self.maximumChannelCount) supported)")
        }
        guard Self.sampleRates.contains(Int(info.samplerate)) else {
            sf_close(file)
            throw AudioFileError(path: path, reason: "absurd sample rate \(info.samplerate) Hz "
                + "(\(Self.sampleRates.lowerBound)…\(Self.sampleRates.upperBound) accepted)")
        }
        self.file = file
        sampleRate = Int(info.samplerate)
        channelCount = Int(info.channels)
        frameCount = Int(info.frames)
        format = info.format
    }

    deinit {
        sf_close(file)
    }

    /// Reads up to `buffer.count / channelCount` frames, interleaved, into `buffer`; returns the
    /// number of frames read (0 at the end of the file).
    /// - Throws: `AudioFileError` when libsndfile reports a decoding error.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let frames = buffer.count / channelCount
        guard frames > 0, let base = buffer.baseAddress else { return 0 }
        let read = Int(sf_readf_float(file, base, sf_count_t(frames)))
        if read < frames, sf_error(file) != 0 {
            throw AudioFileError(path: path, reason: String(cString: sf_strerror(file)))
        }
        return read
    }

    /// The next at most `maximumFrames` frames, one array per channel; `nil` at the end of the file.
    public func readChunk(maximumFrames: Int) throws -> [[Float]]? {
        var interleaved = [Float](repeating: 0, count: max(maximumFrames, 1) * channelCount)
        let frames = try interleaved.withUnsafeMutableBufferPointer { try read(into: $0) }
        guard frames > 0 else { return nil }
        let channels = channelCount
        return (0..<channels).map { channel in (0..<frames).map { interleaved[$0 * channels + channel] } }
    }

    /// Reads every remaining frame.
    public func readAll() throws -> AudioSignal {
        // `frameCount` is the header's claim (a 216-byte FLAC can declare 2^36 frames): reserve
        // and chunk by it only up to 2^16 frames, and let the arrays grow past that as data arrives.
        let chunkFrames = min(frameCount, 65536)
        var channels = [[Float]](repeating: [], count: channelCount)
        for index in channels.indices { channels[index].reserveCapacity(chunkFrames) }
        while let chunk = try readChunk(maximumFrames: chunkFrames) {
            for (index, samples) in chunk.enumerated() { channels[index] += samples }
        }
        return AudioSignal(sampleRate: sampleRate, channels: channels)
    }

    /// Reads a whole file.
    public static func read(path: String) throws -> AudioSignal {
        try AudioFileReader(path: path).readAll()
    }
}
