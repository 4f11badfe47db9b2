import Foundation

/// A model folder that none of the search roots holds (whole).
public struct ModelFolderNotFound: Error, CustomStringConvertible {
    public let description: String
}

extension ModelCatalog {
    /// The first `<root>/<folderName>` over `roots` that holds every one of `files`: how models that
    /// are not enhancers (DNSMOS, Silero VAD) are found, in the same folders and order as the
    /// enhancers. - Throws: `ModelFolderNotFound` saying where it looked and what to do.
    public static func directory(named folderName: String, holding files: [String], roots: [SearchRoot] = searchRoots()) throws -> String {
        for root in roots {
            let directory = (root.path as NSString).appendingPathComponent(folderName)
            if files.allSatisfy({ FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent($0)) }) {
                return directory
            }
        }
        let searched = roots.map { "\(($0.path as NSString).appendingPathComponent(folderName)) (\($0.origin))" }
        throw ModelFolderNotFound(description:
            "\(folderName) (\(files.joined(separator: ", "))) not found in \(searched.isEmpty ? "any folder" : searched.joined(separator: ", ")); "
                + "run Scripts/fetch-model in the repository, or set \(directoryVariable) to the folder that holds \(folderName)/")
    }
}
