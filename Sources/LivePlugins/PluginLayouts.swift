import Enhancement
import Foundation
import ModelCatalog
import Synchronization

/// The plugins the shared object offers, made once per process from the models found above it
/// (`ModelCatalog.searchRoots(forPluginAt:)`): a mono and a stereo plugin for each built-in kind
/// (whether or not its files are there: instantiating one says where it looked) and for each
/// card found, labelled `dfkit_<name>_mono|stereo`, and `dfkit_model_mono|stereo`, whose model is
/// the name or folder in `DFKIT_PLUGIN_MODEL` when the host instantiates it. Hosts call the
/// descriptor functions outside real time; the list is made under a lock on the first call.
enum PluginLayouts {
    private static let made = Mutex<[PluginLayout]?>(nil)

    /// LADSPA ids: the built-in kinds' in order from 0xDF0001 (mono, stereo, …), the
    /// environment-chosen pair's fixed, a card's from its label's hash above them.
    static let firstID: UInt = 0xDF0001
    static let environmentIDs: (mono: UInt, stereo: UInt) = (0xDF00FE, 0xDF00FF)
    static let cardIDs: Range<UInt> = 0xDF0100..<0xDFFF00

    static func all(pluginPath: String) -> [PluginLayout] {
        made.withLock { made in
            if let made { return made }
            let layouts = make(roots: ModelCatalog.searchRoots(forPluginAt: pluginPath))
            made = layouts
            return layouts
        }
    }

    static func make(roots: [ModelCatalog.SearchRoot]) -> [PluginLayout] {
        var layouts: [PluginLayout] = []
        var ids: Set<UInt> = []
        func add(name model: String, display: String, licence: String, options: [EnhancerOption], reference: PluginLayout.Model,
                 id: (Int) -> UInt) {
            for (index, channels) in [1, 2].enumerated() {
                let label = "dfkit_\(model.replacingOccurrences(of: "-", with: "_").replacingOccurrences(of: ".", with: "_"))_\(channels == 1 ? "mono" : "stereo")"
                guard !layouts.contains(where: { $0.label == label }) else { continue }
                var unique = id(index)
                while ids.contains(unique) { unique = cardIDs.lowerBound + (unique + 1 - cardIDs.lowerBound) % UInt(cardIDs.count) }
                ids.insert(unique)
                layouts.append(PluginLayout(
                    label: label, name: "DeepFilterKit \(display) noise suppression (\(channels == 1 ? "mono" : "stereo"))",
                    uniqueID: unique, model: reference, channelCount: channels, licence: licence, options: options))
            }
        }
        func display(_ summary: String, _ name: String) -> String {
            let head = summary.split(separator: ",").first.map(String.init) ?? ""
            return head.isEmpty ? name : head
        }
        for (position, kind) in ModelCatalog.kinds.enumerated() {
            add(name: kind.name, display: display(kind.summary, kind.name), licence: kind.licence, options: kind.options, reference: .named(kind.name)) {
                firstID + UInt(2 * position + $0)
            }
        }
        add(name: "model", display: "(the model $\(PluginLayout.environmentVariable) names)", licence: "that model's",
            options: [], reference: .fromEnvironment) { $0 == 0 ? environmentIDs.mono : environmentIDs.stereo }
        for location in ModelCatalog.available(roots: roots) where location.kind == nil {
            add(name: location.name, display: display(location.summary, location.name), licence: location.licence, options: location.options,
                reference: .named(location.directory)) { index in
                cardIDs.lowerBound + (labelHash("\(location.name)/\(index)") % UInt(cardIDs.count))
            }
        }
        return layouts
    }

    /// FNV-1a of `text`'s bytes: a stable id for a card's plugin across processes and machines.
    static func labelHash(_ text: String) -> UInt {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return UInt(hash >> 8)
    }
}
