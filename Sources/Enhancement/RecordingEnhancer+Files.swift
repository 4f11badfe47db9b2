import DSP
import Foundation

extension RecordingEnhancer {
    /// What enhancing one file took.
    public struct FileReport: Sendable {
        public let sampleRate: Int
        public let channelCount: Int
        public let durationSeconds: Double
        /// Building the enhancers for the file's rate and channel count.
        public let setupSeconds: Double
        /// Reading, enhancing and writing (setup excluded).
        public let processingSeconds: Double
        /// NaN and ±Inf input samples replaced by zero before enhancement.
        public let replacedSamples: Int

        public var realTimeFactor: Double { processingSeconds / max(durationSeconds, .leastNonzeroMagnitude) }
    }

    /// Enhances the audio file `input` into a WAV at `output` (same rate and channel count,
    /// aligned, same length), written to a temporary file that becomes `output` only when
    /// complete. - Parameter progress: the fraction of the input consumed so far.
    /// - Throws: `AudioFileError` for a file that cannot be read or written, `EnhancerError`
    ///   (naming `input`) for one the model cannot take.
    public func enhance(file input: String, to output: String, encoding: AudioFileWriter.Encoding = .pcm16,
                        progress: (Double) -> Void = { _ in }) throws -> FileReport {
        let reader = try AudioFileReader(path: input)
        let clock = ContinuousClock()
        let setupStart = clock.now
        let session: RecordingSession
        do {
            session = try makeSession(sampleRate: reader.sampleRate, channelCount: reader.channelCount)
        } catch let error as EnhancerError {
            throw EnhancerError.unsupported("\(input): \(error)")
        }
        let setup = clock.now - setupStart
        // Opened once everything that could refuse the input has accepted it.
        let writer = try AudioFileWriter(path: output, sampleRate: reader.sampleRate, channelCount: reader.channelCount, encoding: encoding)
        var replaced = 0
        let start = clock.now
        _ = try session.enhance(read: {
            guard var chunk = try reader.readChunk(maximumFrames: reader.sampleRate * 5) else { return nil }
            for index in chunk.indices { replaced += replaceNonFiniteSamples(in: &chunk[index]) }
            return chunk
        }, write: { try writer.write(channels: $0) },
        progress: { progress(Double($0) / Double(max(reader.frameCount, 1))) })
        try writer.finish()
        let elapsed = clock.now - start
        func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        }
        return FileReport(sampleRate: reader.sampleRate, channelCount: reader.channelCount,
                          durationSeconds: Double(reader.frameCount) / Double(reader.sampleRate),
                          setupSeconds: seconds(setup), processingSeconds: seconds(elapsed), replacedSamples: replaced)
    }
}
