import EnhancerFixtures
import Enhancement
import Testing
import TestSupport

/// One plugin at one rate, as the host tests run it: which clip it gets, which reference it is
/// held to, and the latency it must report.
struct PluginCase: Sendable, CustomTestStringConvertible {
    let label: String
    let model: String
    let clip: String
    let rate: Int
    let channels: Int
    /// The LV2 ports in index order (plugin-host's --ports), as Plugins/dfkit.lv2/dfkit.ttl lists them.
    let lv2Ports: String
    /// The input control ports' index and value for hosts that set every control (LV2 in plugin-host).
    let controls: [(Int, Float)]
    /// The enable port's index.
    let enablePort: Int
    /// What the host's environment adds (the model of the `dfkit_model_*` plugins).
    var environment: [String: String?] = [:]

    var uri: String { "urn:deepfilterkit:\(label)" }
    var testDescription: String { "\(label) at \(rate) Hz" }

    static let dfn3Mono = PluginCase(label: "dfkit_dfn3_mono", model: "dfn3", clip: "speech48", rate: 48_000, channels: 1,
                                     lv2Ports: "iocccl", controls: [(2, 100), (3, 0), (4, 1)], enablePort: 4)
    static let dfn3Stereo = PluginCase(label: "dfkit_dfn3_stereo", model: "dfn3", clip: "stereo48", rate: 48_000, channels: 2,
                                       lv2Ports: "iioocccl", controls: [(4, 100), (5, 0), (6, 1)], enablePort: 6)
    static let gtcrnMono = PluginCase(label: "dfkit_gtcrn_mono", model: "gtcrn", clip: "speech16", rate: 16_000, channels: 1,
                                      lv2Ports: "ioccl", controls: [(2, 100), (3, 1)], enablePort: 3)
    /// GTCRN at PipeWire's 48 kHz: resampled to 16 kHz inside and back.
    static let gtcrnMono48 = PluginCase(label: "dfkit_gtcrn_mono", model: "gtcrn", clip: "speech48", rate: 48_000, channels: 1,
                                        lv2Ports: "ioccl", controls: [(2, 100), (3, 1)], enablePort: 3)

    /// A card model by the plugin made of its card.
    static let dtlnMono = PluginCase(label: "dfkit_dtln_mono", model: "dtln", clip: "speech16", rate: 16_000, channels: 1,
                                     lv2Ports: "ioccl", controls: [(2, 100), (3, 1)], enablePort: 3)
    /// A card model by the plugin whose model the environment names (a folder).
    static let environmentNSNet2 = PluginCase(label: "dfkit_model_mono", model: "nsnet2", clip: "speech16", rate: 16_000, channels: 1,
                                              lv2Ports: "ioccl", controls: [(2, 100), (3, 1)], enablePort: 3,
                                              environment: ["DFKIT_PLUGIN_MODEL": RepositoryFiles.root.appendingPathComponent("Models/NSNet2").path])

    static let all = [dfn3Mono, dfn3Stereo, gtcrnMono, gtcrnMono48, dtlnMono, environmentNSNet2]

    /// The latency the plugin must report, from its parts: the model's streaming latency at its
    /// rate (or the rate-adapting chain's, rounded to whole samples, at another), plus the
    /// frame − 1 samples that re-blocking any host block sizes needs (the frame is the model's hop
    /// at its rate, 10 ms at another).
    func expectedLatency() throws -> Int {
        let model = try Models.named(self.model)
        guard rate != model.sampleRate else { return model.latency + model.hopSize - 1 }
        let chain = try RateAdaptingEnhancer(enhancer: model.makeStreamingEnhancer(options: EnhancerOptions()), sampleRate: rate)
        return Int(chain.latency.rounded()) + rate / 100 - 1
    }
}
