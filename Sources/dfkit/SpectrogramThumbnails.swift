import Checksum
import Corpus
import DSP
import Foundation

/// The spectrogram images of a page's rows (`SpectrogramLayout`, channels averaged), each row on
/// one colour scale: Viridis from the loudest cell of the row's files down `decibelSpan`. An image
/// is named by a hash of its file's path, size and modification time and of the scale, so a re-run
/// reuses every image whose file and row are unchanged; `analysis.json` keeps each file's peak and
/// length, so such a row's audio is not even read again.
final class SpectrogramThumbnails: @unchecked Sendable {
    static let folderName = "spectrograms"
    static let maximumColumns = 256
    static let maximumRows = 96
    static let decibelSpan: Float = 90

    private struct Analysis: Codable {
        let seconds: Double?
        let peak: Float?
        let problem: String?
    }

    let folder: String
    private let audio: PageAudio
    private var analyses: [String: Analysis]
    private var used: Set<String> = []
    private let lock = NSLock()
    private var analysisFile: String { (folder as NSString).appendingPathComponent("analysis.json") }

    init(pageDirectory: String, audio: PageAudio) throws {
        folder = (pageDirectory as NSString).appendingPathComponent(Self.folderName)
        self.audio = audio
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        analyses = [:]
        if let data = FileManager.default.contents(atPath: analysisFile) {
            analyses = (try? JSONDecoder().decode([String: Analysis].self, from: data)) ?? [:]
        }
    }

    /// The media of `paths` (one row), and the top of the row's colour scale in dB (nil when no
    /// file could be read). Safe to call for several rows at once.
    func row(_ paths: [String]) throws -> (media: [PageMedia], top: Float?) {
        var grids: [String: DecibelGrid] = [:]
        var found: [(path: String, key: String?, analysis: Analysis)] = []
        for path in paths {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
                found.append((path, nil, Analysis(seconds: nil, peak: nil, problem: "missing")))
                continue
            }
            let modified = ((attributes[.modificationDate] as? Date) ?? .distantPast).timeIntervalSince1970
            let key = "\(path)|\(attributes[.size] as? Int ?? -1)|\(modified)"
            if let known = lock.withLock({ analyses[key] }) {
                found.append((path, key, known))
                continue
            }
            let analysis: Analysis
            do {
                let grid = try Self.grid(of: path)
                grids[path] = grid.grid
                analysis = Analysis(seconds: grid.seconds, peak: grid.grid.peak, problem: nil)
            } catch {
                // The page shows the path beside the problem; the reader's message starts with it too.
                let message = "\(error)"
                analysis = Analysis(seconds: nil, peak: nil, problem: "unreadable: " + (message.hasPrefix(path + ": ") ? String(message.dropFirst(path.count + 2)) : message))
            }
            lock.withLock { analyses[key] = analysis }
            found.append((path, key, analysis))
        }
        let top = found.compactMap(\.analysis.peak).max().map { $0.rounded(.up) }
        let media = try found.map { path, key, analysis in
            guard let key, analysis.problem == nil, let top else {
                return PageMedia(path: path, src: nil, spectrogram: nil, seconds: nil, problem: analysis.problem ?? "unreadable")
            }
            let name = String(SHA256.digest(of: "\(key)|\(top)|\(Self.decibelSpan)|\(Self.maximumColumns)x\(Self.maximumRows)").prefix(24)) + ".png"
            let image = (folder as NSString).appendingPathComponent(name)
            lock.withLock { _ = used.insert(name) }
            if !FileManager.default.fileExists(atPath: image) {
                let grid = try grids[path] ?? Self.grid(of: path).grid
                try Data(try PNGEncoder.encode(grid.image(top: top, span: Self.decibelSpan))).write(to: URL(fileURLWithPath: image), options: .atomic)
            }
            return PageMedia(path: path, src: try audio.place(path), spectrogram: Self.folderName + "/" + name, seconds: analysis.seconds, problem: nil)
        }
        return (media, top)
    }

    /// Keeps the analyses for the next run and removes the images this run did not use.
    func finish() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(analyses).write(to: URL(fileURLWithPath: analysisFile), options: .atomic)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasSuffix(".png") && !used.contains(name) {
            try? FileManager.default.removeItem(atPath: (folder as NSString).appendingPathComponent(name))
        }
    }

    private static func grid(of path: String) throws -> (grid: DecibelGrid, seconds: Double) {
        let signal = try AudioFileReader.read(path: path)
        guard signal.frameCount > 0 else { throw CorpusError.file(path, "holds no samples") }
        var mono = signal.channels[0]
        if signal.channelCount > 1 {
            for channel in signal.channels.dropFirst() { for index in mono.indices { mono[index] += channel[index] } }
            let scale = 1 / Float(signal.channelCount)
            for index in mono.indices { mono[index] *= scale }
        }
        let layout = SpectrogramLayout(sampleRate: signal.sampleRate, sampleCount: mono.count, maximumColumns: maximumColumns)
        return (try layout.grid(mono[...], maximumRows: maximumRows), Double(signal.frameCount) / Double(signal.sampleRate))
    }
}
