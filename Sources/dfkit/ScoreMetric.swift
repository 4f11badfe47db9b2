import Foundation

/// A metric `dfkit score --metrics` can name.
enum ScoreMetric: String, CaseIterable {
    case stoi, estoi
    case siSDR = "si-sdr"
    case sdr, snr, dnsmos, vad

    /// Whether it compares against `--reference`.
    var isIntrusive: Bool { [.stoi, .estoi, .siSDR, .sdr, .snr].contains(self) }

    /// The metrics of a comma-separated list (`stoi,estoi,si-sdr`), in listing order.
    static func parse(_ list: String) throws -> [ScoreMetric] {
        let names = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let chosen = try names.map { name -> ScoreMetric in
            guard let metric = ScoreMetric(rawValue: name) else {
                throw CommandLineError("--metrics: unknown metric '\(name)' (one of \(allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return metric
        }
        return allCases.filter(chosen.contains)
    }
}
