import Enhancement

/// One plugin the shared object offers, made from a model's description: its label and name, the
/// model it runs (by name or folder, or the one `DFKIT_PLUGIN_MODEL` names), its channels and its
/// ports in descriptor order — audio inputs, audio outputs, the attenuation limit, a control for
/// each option the model offers as a port, enable, latency. The LADSPA descriptors and the LV2
/// bundle (`Plugins/dfkit.lv2/dfkit.ttl`, written by `plugin-host ttl`) both list these.
struct PluginLayout: Sendable {
    /// Which model an instance loads.
    enum Model: Sendable, Equatable {
        /// This name or folder, looked up from the plugin's search roots.
        case named(String)
        /// The name or folder in `DFKIT_PLUGIN_MODEL` when the host instantiates it.
        case fromEnvironment
    }

    struct Port: Sendable {
        enum Role: Sendable {
            case audioInput(channel: Int)
            case audioOutput(channel: Int)
            /// The dry signal mixed back in, in dB (`LiveEnhancer.attenuationLimitDecibels`).
            case attenuationLimit
            /// One of the model's options, applied when the host activates the plugin.
            case option(EnhancerOption)
            case enable
            /// Output: how far the output runs behind the input, in samples.
            case latency
        }

        let role: Role
        let name: String
        let symbol: String
        let range: ClosedRange<Float>
        let defaultValue: Float

        /// What kind of port a descriptor declares, as the C side codes it (`dfkit_plugin.h`).
        var kindCode: Int32 {
            switch role {
            case .audioInput: 0
            case .audioOutput: 1
            case .attenuationLimit, .option: 2
            case .enable: 3
            case .latency: 4
            }
        }
    }

    /// The variable naming the model of the `dfkit_model_*` plugins.
    static let environmentVariable = "DFKIT_PLUGIN_MODEL"

    let label: String
    let name: String
    let uniqueID: UInt
    let model: Model
    let channelCount: Int
    let licence: String
    let ports: [Port]

    /// The ports of a plugin with `channelCount` channels and these option ports.
    init(label: String, name: String, uniqueID: UInt, model: Model, channelCount: Int, licence: String, options: [EnhancerOption]) {
        self.label = label
        self.name = name
        self.uniqueID = uniqueID
        self.model = model
        self.channelCount = channelCount
        self.licence = licence
        let sides = channelCount == 1 ? [("", "")] : [(" L", "_l"), (" R", "_r")]
        var ports: [Port] = []
        for (index, (name, symbol)) in sides.enumerated() {
            ports.append(Port(role: .audioInput(channel: index), name: "Input\(name)", symbol: "in\(symbol)", range: 0...0, defaultValue: 0))
        }
        for (index, (name, symbol)) in sides.enumerated() {
            ports.append(Port(role: .audioOutput(channel: index), name: "Output\(name)", symbol: "out\(symbol)", range: 0...0, defaultValue: 0))
        }
        // 100 dB and above: no limit (the default); below 0.01 dB: the input, delayed.
        ports.append(Port(role: .attenuationLimit, name: "Attenuation limit (dB)", symbol: "atten_lim", range: 0...100, defaultValue: 100))
        for option in options {
            guard let port = option.port, let value = option.defaultValue.number else { continue }
            ports.append(Port(role: .option(option), name: port.name, symbol: option.name.replacingOccurrences(of: "-", with: "_"),
                              range: Float(port.range.lowerBound)...Float(port.range.upperBound), defaultValue: Float(value)))
        }
        ports.append(Port(role: .enable, name: "Enable", symbol: "enable", range: 0...1, defaultValue: 1))
        ports.append(Port(role: .latency, name: "latency", symbol: "latency", range: 0...192_000, defaultValue: 0))
        self.ports = ports
    }
}
