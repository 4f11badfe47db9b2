import CBLAS
import Glibc
import Synchronization

// The C ABI the LADSPA and LV2 descriptors (Sources/CLivePlugins) call; declared in
// Sources/CLivePlugins/include/dfkit_plugin.h. The plugins are `PluginLayouts.all`, by index; an
// instance travels as an opaque pointer to a retained `PluginInstance`.

/// The layouts, once made, and their texts as C strings that live as long as the process (hosts
/// keep the descriptors' pointers).
private final class DescribedPlugins: @unchecked Sendable {
    let layouts: [PluginLayout]
    let labels: [UnsafeMutablePointer<CChar>]
    let names: [UnsafeMutablePointer<CChar>]
    let copyrights: [UnsafeMutablePointer<CChar>]
    let portNames: [[UnsafeMutablePointer<CChar>]]
    let portSymbols: [[UnsafeMutablePointer<CChar>]]

    init(layouts: [PluginLayout]) {
        self.layouts = layouts
        labels = layouts.map { strdup($0.label) }
        names = layouts.map { strdup($0.name) }
        copyrights = layouts.map { strdup("models: \($0.licence)") }
        portNames = layouts.map { $0.ports.map { strdup($0.name) } }
        portSymbols = layouts.map { $0.ports.map { strdup($0.symbol) } }
    }
}

private let described = Mutex<DescribedPlugins?>(nil)

private func plugins(_ pluginPath: String) -> DescribedPlugins {
    described.withLock { described in
        if let described { return described }
        let made = DescribedPlugins(layouts: PluginLayouts.all(pluginPath: pluginPath))
        described = made
        return made
    }
}

/// The plugins described so far and the position of plugin `index`, nil when it does not exist.
private func plugin(_ index: Int32) -> (DescribedPlugins, Int)? {
    guard let plugins = described.withLock({ $0 }), index >= 0, Int(index) < plugins.layouts.count else { return nil }
    return (plugins, Int(index))
}

/// How many plugins there are, made from the models found above `plugin_path` on the first call.
@_cdecl("dfkit_plugin_count")
public func dfkitPluginCount(_ pluginPath: UnsafePointer<CChar>?) -> Int32 {
    Int32(plugins(pluginPath.map { String(cString: $0) } ?? "").layouts.count)
}

@_cdecl("dfkit_plugin_label")
public func dfkitPluginLabel(_ index: Int32) -> UnsafePointer<CChar>? {
    plugin(index).map { UnsafePointer($0.labels[$1]) }
}

@_cdecl("dfkit_plugin_name")
public func dfkitPluginName(_ index: Int32) -> UnsafePointer<CChar>? {
    plugin(index).map { UnsafePointer($0.names[$1]) }
}

@_cdecl("dfkit_plugin_copyright")
public func dfkitPluginCopyright(_ index: Int32) -> UnsafePointer<CChar>? {
    plugin(index).map { UnsafePointer($0.copyrights[$1]) }
}

@_cdecl("dfkit_plugin_unique_id")
public func dfkitPluginUniqueID(_ index: Int32) -> UInt {
    plugin(index).map { $0.layouts[$1].uniqueID } ?? 0
}

@_cdecl("dfkit_plugin_port_count")
public func dfkitPluginPortCount(_ index: Int32) -> Int32 {
    plugin(index).map { Int32($0.layouts[$1].ports.count) } ?? 0
}

/// The kind of port `port` of plugin `index` (DFKIT_PORT_* in the header), its name, symbol, range
/// and default; -1 for an index that does not exist.
@_cdecl("dfkit_plugin_port")
public func dfkitPluginPort(_ index: Int32, _ port: Int32, _ name: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                            _ symbol: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ minimum: UnsafeMutablePointer<Float>?,
                            _ maximum: UnsafeMutablePointer<Float>?, _ defaultValue: UnsafeMutablePointer<Float>?) -> Int32 {
    guard let (described, plugin) = plugin(index), port >= 0, Int(port) < described.layouts[plugin].ports.count else { return -1 }
    let description = described.layouts[plugin].ports[Int(port)]
    name?.pointee = UnsafePointer(described.portNames[plugin][Int(port)])
    symbol?.pointee = UnsafePointer(described.portSymbols[plugin][Int(port)])
    minimum?.pointee = description.range.lowerBound
    maximum?.pointee = description.range.upperBound
    defaultValue?.pointee = description.defaultValue
    return description.kindCode
}

/// Builds an instance, or returns NULL after saying why on stderr (missing model, rate refused).
@_cdecl("dfkit_plugin_instantiate")
public func dfkitPluginInstantiate(_ index: Int32, _ sampleRate: Double, _ pluginPath: UnsafePointer<CChar>?) -> UnsafeMutableRawPointer? {
    guard let (described, plugin) = plugin(index) else { return nil }
    let layout = described.layouts[plugin]
    // A host does not start with OPENBLAS_NUM_THREADS=1; a second BLAS thread would busy-wait
    // beside the audio thread, so every call runs on the caller's thread.
    if getenv("OPENBLAS_NUM_THREADS") == nil { openblas_set_num_threads(1) }
    do {
        let instance = try PluginInstance(layout: layout, sampleRate: sampleRate, pluginPath: pluginPath.map { String(cString: $0) } ?? "")
        return Unmanaged.passRetained(instance).toOpaque()
    } catch {
        let rate = sampleRate == sampleRate.rounded() && abs(sampleRate) < 1e9 ? String(Int(sampleRate)) : String(sampleRate)
        let message = "\(layout.label): cannot instantiate at \(rate) Hz: \(error)\n"
        _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        return nil
    }
}

@_cdecl("dfkit_plugin_connect")
public func dfkitPluginConnect(_ instance: UnsafeMutableRawPointer?, _ port: UInt, _ data: UnsafeMutablePointer<Float>?) {
    guard let instance, port < UInt(Int32.max) else { return }
    Unmanaged<PluginInstance>.fromOpaque(instance).takeUnretainedValue().connect(port: Int(port), to: data)
}

@_cdecl("dfkit_plugin_activate")
public func dfkitPluginActivate(_ instance: UnsafeMutableRawPointer?) {
    guard let instance else { return }
    Unmanaged<PluginInstance>.fromOpaque(instance).takeUnretainedValue().activate()
}

/// The real-time entry: any count, including 0.
@_cdecl("dfkit_plugin_run")
public func dfkitPluginRun(_ instance: UnsafeMutableRawPointer?, _ count: UInt) {
    guard let instance else { return }
    Unmanaged<PluginInstance>.fromOpaque(instance).takeUnretainedValue().run(Int(clamping: count))
}

@_cdecl("dfkit_plugin_cleanup")
public func dfkitPluginCleanup(_ instance: UnsafeMutableRawPointer?) {
    guard let instance else { return }
    Unmanaged<PluginInstance>.fromOpaque(instance).release()
}
