import Foundation

/// A one-line progress bar on standard error, drawn only when standard error is a terminal.
final class ProgressBar {
    private let label: String
    private let enabled: Bool
    private var lastPercent = -1

    init(label: String, enabled: Bool = true) {
        self.label = label
        self.enabled = enabled && isatty(STDERR_FILENO) == 1
    }

    func update(_ fraction: Double) {
        guard enabled else { return }
        let percent = Int((min(max(fraction, 0), 1) * 100).rounded(.down))
        guard percent != lastPercent else { return }
        lastPercent = percent
        let width = 30, filled = percent * width / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(percent)%".utf8))
    }

    func finish() {
        guard enabled, lastPercent >= 0 else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
