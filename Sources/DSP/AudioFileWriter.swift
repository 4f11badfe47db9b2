import CSndFile
import Foundation

/// Writes a WAV file atomically: samples go to a hidden temporary file in the destination's
/// directory, which is renamed onto `path` only by a successful `finish()`. A failed or abandoned
/// writer removes its temporary file, so `path` is either the complete new file or untouched. A
/// killed process cannot remove it: its name (`.NAME.partial-HOST-PID-RANDOM`) says which host
/// and process made it, so that a later run can tell a stale one (`isStaleTemporaryFile`). The
/// same samples give the same bytes (no time-stamped PEAK chunk in float files).
public final class AudioFileWriter {
    public enum Encoding: Sendable {
        /// 16-bit integer PCM; samples outside [−1, 1] are clipped.
        case pcm16
        /// 32-bit IEEE float, samples stored as they are.
        case float32
    }

    public let path: String
    public let sampleRate: Int
    public let channelCount: Int
    private let temporaryPath: String
    private var file: OpaquePointer?

    /// - Throws: `AudioFileError` for a channel count outside 1…64, a sample rate outside
    ///   1…768 000 Hz, or when the temporary file cannot be created (libsndfile's reason).
    public init(path: String, sampleRate: Int, channelCount: Int, encoding: Encoding = .pcm16) throws {
        guard (1...AudioFileReader.maximumChannelCount).contains(channelCount) else {
            throw AudioFileError(path: path, reason: "unsupported channel count \(channelCount) "
                + "(1…\(AudioFileReader.maximumChannelCount) supported)")
        }
        guard AudioFileReader.sampleRates.contains(sampleRate) else {
            throw AudioFileError(path: path, reason: "absurd sample rate \(sampleRate) Hz")
        }
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        temporaryPath = directory + "/." + url.lastPathComponent + ".partial-\(Self.hostName)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channelCount)
        let subtype = encoding == .pcm16 ? SF_FORMAT_PCM_16 : SF_FORMAT_FLOAT
        info.format = Int32(SF_FORMAT_WAV) | Int32(subtype)
        guard let file = sf_open(temporaryPath, Int32(SFM_WRITE), &info) else {
            let reason = String(cString: sf_strerror(nil))
            unlink(temporaryPath)
            throw AudioFileError(path: path, reason: "cannot create a file in \(directory): \(reason)")
        }
        if encoding == .pcm16 {
            sf_command(file, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
        } else {
            sf_command(file, Int32(SFC_SET_ADD_PEAK_CHUNK), nil, Int32(SF_FALSE))
        }
        self.file = file
        self.path = path
        self.sampleRate = sampleRate
        self.channelCount = channelCount
    }

    deinit {
        abandon()
    }

    /// This machine's name as temporary files carry it ("-" and "/" replaced, so it parses back).
    static let hostName: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count - 1)
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name.replacingOccurrences(of: "-", with: "_").replacingOccurrences(of: "/", with: "_")
    }()

    /// Whether `fileName` is a temporary file a writer on this host left behind when its process
    /// died (the process it names no longer exists).
    public static func isStaleTemporaryFile(_ fileName: String) -> Bool {
        guard fileName.hasPrefix("."), let marker = fileName.range(of: ".partial-", options: .backwards) else { return false }
        let fields = fileName[marker.upperBound...].split(separator: "-")
        guard fields.count == 3, String(fields[0]) == hostName, let pid = Int32(fields[1]), pid > 0 else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Appends interleaved frames (`samples.count` must be a multiple of `channelCount`).
    /// - Throws: `AudioFileError` if the writer is finished, the count is not whole frames, or the
    ///   write fails (the temporary file is then removed).
    public func write(interleaved samples: UnsafeBufferPointer<Float>) throws {
        guard let file else { throw AudioFileError(path: path, reason: "write after finish or failure") }
        guard samples.count % channelCount == 0 else {
            throw AudioFileError(path: path, reason: "\(samples.count) samples are not whole frames of \(channelCount) channels")
        }
        let frames = samples.count / channelCount
        guard frames > 0, let base = samples.baseAddress else { return }
        if Int(sf_writef_float(file, base, sf_count_t(frames))) != frames {
            let reason = String(cString: sf_strerror(file))
            abandon()
            throw AudioFileError(path: path, reason: "write failed: \(reason)")
        }
    }

    /// Appends one array per channel, all of the same length.
    public func write(channels: [[Float]]) throws {
        guard channels.count == channelCount, Set(channels.map(\.count)).count <= 1 else {
            throw AudioFileError(path: path, reason: "expected \(channelCount) channels of equal length, got "
                + "\(channels.map(\.count))")
        }
        try AudioSignal(sampleRate: sampleRate, channels: channels).interleaved.withUnsafeBufferPointer {
            try write(interleaved: $0)
        }
    }

    /// Completes the file and moves it onto `path`.
    /// - Throws: `AudioFileError` if closing or renaming fails (nothing is left behind then).
    public func finish() throws {
        guard let file else { throw AudioFileError(path: path, reason: "finish after finish or failure") }
        self.file = nil
        if sf_close(file) != 0 {
            unlink(temporaryPath)
            throw AudioFileError(path: path, reason: "closing the file failed")
        }
        if rename(temporaryPath, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw AudioFileError(path: path, reason: "cannot move the finished file into place: \(reason)")
        }
    }

    private func abandon() {
        guard let file else { return }
        sf_close(file)
        unlink(temporaryPath)
        self.file = nil
    }

    /// Writes a whole signal.
    public static func write(_ signal: AudioSignal, to path: String, encoding: Encoding = .pcm16) throws {
        let writer = try AudioFileWriter(path: path, sampleRate: signal.sampleRate,
                                         channelCount: signal.channelCount, encoding: encoding)
        try writer.write(channels: signal.channels)
        try writer.finish()
    }
}
