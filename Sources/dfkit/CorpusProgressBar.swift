import Corpus
import Foundation

/// A corpus run's progress on standard error (files, audio hours, estimated time left), drawn only
/// when standard error is a terminal.
final class CorpusProgressBar: @unchecked Sendable {
    private let enabled = isatty(STDERR_FILENO) == 1
    private var drawn = false

    func update(_ progress: CorpusRunner.Progress) {
        guard enabled else { return }
        let fraction = progress.totalAudioSeconds > 0
            ? progress.finishedAudioSeconds / progress.totalAudioSeconds
            : Double(progress.finishedFiles) / Double(max(progress.totalFiles, 1))
        let remaining = fraction > 0 ? progress.elapsedSeconds * (1 - fraction) / fraction : .nan
        let width = 24, filled = Int((min(max(fraction, 0), 1) * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let eta = remaining.isFinite ? String(format: "%d:%02d", Int(remaining) / 60, Int(remaining) % 60) : "–"
        let line = String(format: "\r[%@] %d/%d files, %.2f/%.2f h audio, %d failed, ETA %@", bar, progress.finishedFiles, progress.totalFiles,
                          progress.finishedAudioSeconds / 3600, progress.totalAudioSeconds / 3600, progress.failedFiles, eta)
        FileHandle.standardError.write(Data(line.utf8))
        drawn = true
    }

    func finish() {
        if enabled && drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
