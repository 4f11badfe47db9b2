import Foundation

extension ModelCatalog {
    /// The folders a plugin loaded by a host looks a model name up in: `DFKIT_MODEL_DIR`, then
    /// `share/deepfilterkit/models` above the plugin's own file (`Scripts/install-plugins` puts
    /// `PREFIX/lib/ladspa/libdfkit-ladspa.so` and `PREFIX/lib/lv2/dfkit.lv2/dfkit.so` beside
    /// `PREFIX/share/deepfilterkit/models`), then the repository's `Models/` when the plugin
    /// lies in a build folder of it. The host's executable says nothing about where models are.
    public static func searchRoots(forPluginAt pluginPath: String,
                                   environment: [String: String] = ProcessInfo.processInfo.environment) -> [SearchRoot] {
        var roots: [SearchRoot] = []
        if let directory = environment[directoryVariable], !directory.isEmpty {
            roots.append(SearchRoot(path: directory, origin: directoryVariable))
        }
        var folder = URL(fileURLWithPath: pluginPath).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            folder.deleteLastPathComponent()
            let models = folder.appendingPathComponent("share/deepfilterkit/models")
            if FileManager.default.fileExists(atPath: models.path) {
                roots.append(SearchRoot(path: models.path, origin: "installed"))
                break
            }
        }
        roots += searchRoots(environment: [:], executable: pluginPath).filter { $0.origin == "repository" }
        return roots
    }
}
