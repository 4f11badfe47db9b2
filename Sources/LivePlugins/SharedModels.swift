import Enhancement
import Foundation
import ModelCatalog
import Synchronization

/// The models the plugin instances of one process share: loading DFN3 reads and plans 8.5 MB of
/// weights, so the first instance of a model loads it and the others make their enhancers from
/// the same one; the last instance to go releases it. Only `instantiate` and `cleanup` come here
/// (never `run`), from whichever threads the host uses, hence the lock.
enum SharedModels {
    private struct Entry {
        let model: any EnhancerModel
        var users: Int
    }

    private static let entries = Mutex<[String: Entry]>([:])

    /// The model `reference` names — a model's name found from `roots`, or a folder — loaded once,
    /// and the folder it came from; pair with `release(folder:)`.
    static func acquire(_ reference: String, roots: [ModelCatalog.SearchRoot]) throws -> (model: any EnhancerModel, folder: String) {
        try entries.withLock { entries in
            let folder: String
            if reference.contains("/") {
                folder = URL(fileURLWithPath: reference).standardizedFileURL.path
            } else if let found = ModelCatalog.locate(reference, roots: roots) {
                folder = found.directory
            } else {
                let searched = roots.isEmpty ? "any folder" : roots.map { "\($0.path) (\($0.origin))" }.joined(separator: ", ")
                throw EnhancerError.modelNotFound(
                    "model \(reference) not found in \(searched); set \(ModelCatalog.directoryVariable) to the folder "
                        + "holding the model folders, or install the plugins with their models (Scripts/install-plugins)")
            }
            if var entry = entries[folder] {
                entry.users += 1
                entries[folder] = entry
                return (entry.model, folder)
            }
            let model = try ModelCatalog.model(folder, roots: roots)
            entries[folder] = Entry(model: model, users: 1)
            return (model, folder)
        }
    }

    static func release(folder: String) {
        entries.withLock { entries in
            guard var entry = entries[folder] else { return }
            entry.users -= 1
            entries[folder] = entry.users > 0 ? entry : nil
        }
    }
}
