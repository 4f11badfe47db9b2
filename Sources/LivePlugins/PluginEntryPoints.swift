import CBLAS
import Glibc

// The C ABI the LADSPA and LV2 descriptors (Sources/CLivePlugins) call; declared in
// Sources/CLivePlugins/include/dfkit_plugin.h. An instance travels as an opaque pointer to a
// retained `PluginInstance`.

/// Builds an instance, or returns NULL after saying why on stderr (missing model, rate refused).
@_cdecl("dfkit_plugin_instantiate")
public func dfkitPluginInstantiate(_ kind: Int32, _ sampleRate: Double, _ pluginPath: UnsafePointer<CChar>?) -> UnsafeMutableRawPointer? {
    guard let kind = PluginKind(rawValue: kind) else { return nil }
    // A host does not start with OPENBLAS_NUM_THREADS=1; a second BLAS thread would busy-wait
    // beside the audio thread, so every call runs on the caller's thread.
    if getenv("OPENBLAS_NUM_THREADS") == nil { openblas_set_num_threads(1) }
    do {
        let instance = try PluginInstance(kind: kind, sampleRate: sampleRate, pluginPath: pluginPath.map { String(cString: $0) } ?? "")
        return Unmanaged.passRetained(instance).toOpaque()
    } catch {
        let rate = sampleRate == sampleRate.rounded() && abs(sampleRate) < 1e9 ? String(Int(sampleRate)) : String(sampleRate)
        let message = "\(kind.label): cannot instantiate at \(rate) Hz: \(error)\n"
        _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        return nil
    }
}

@_cdecl("dfkit_plugin_connect")
public func dfkitPluginConnect(_ instance: UnsafeMutableRawPointer?, _ role: Int32, _ channel: Int32, _ data: UnsafeMutablePointer<Float>?) {
    guard let instance, let role = PortRole(rawValue: role) else { return }
    Unmanaged<PluginInstance>.fromOpaque(instance).takeUnretainedValue().connect(role, channel: Int(channel), to: data)
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
