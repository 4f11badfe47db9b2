/// The plugins the shared object offers, in the order of the C descriptors
/// (`Sources/CLivePlugins`): which model, how many channels, which controls.
enum PluginKind: Int32, CaseIterable {
    case dfn3Mono = 0
    case dfn3Stereo = 1
    case gtcrnMono = 2

    /// The LADSPA label and the last part of the LV2 URI.
    var label: String {
        switch self {
        case .dfn3Mono: "dfkit_dfn3_mono"
        case .dfn3Stereo: "dfkit_dfn3_stereo"
        case .gtcrnMono: "dfkit_gtcrn_mono"
        }
    }

    /// The model's name in the catalog.
    var modelName: String {
        switch self {
        case .dfn3Mono, .dfn3Stereo: "dfn3"
        case .gtcrnMono: "gtcrn"
        }
    }

    var channelCount: Int { self == .dfn3Stereo ? 2 : 1 }

    /// DFN3's post-filter β is an option of its engine, set when the host activates the plugin.
    var hasPostFilter: Bool { self != .gtcrnMono }
}

/// What a port does, as the C descriptors tell the Swift side when a host connects one.
enum PortRole: Int32 {
    case audioInput = 0
    case audioOutput = 1
    case attenuationLimit = 2
    case postFilterBeta = 3
    case enable = 4
    case latency = 5
}
