/// Why a model bundle (three ONNX graphs + config.ini) could not be used.
public enum ModelBundleError: Error, Equatable, CustomStringConvertible {
    case missingFile(path: String)
    case unreadableFile(path: String, reason: String)
    case malformedConfig(file: String, line: Int, reason: String)
    case missingConfigKey(file: String, section: String, key: String)
    case invalidConfigValue(file: String, section: String, key: String, value: String, expected: String)
    case unsupportedConfig(file: String, reason: String)
    case graphInterface(file: String, reason: String)

    public var description: String {
        switch self {
        case .missingFile(let path):
            "\(path): missing (a model bundle holds enc.onnx, erb_dec.onnx, df_dec.onnx and config.ini; run Scripts/setup to fetch DeepFilterNet3)"
        case .unreadableFile(let path, let reason):
            "\(path): cannot be read: \(reason)"
        case .malformedConfig(let file, let line, let reason):
            "\(file):\(line): \(reason)"
        case .missingConfigKey(let file, let section, let key):
            "\(file): key '\(key)' missing from section [\(section)]"
        case .invalidConfigValue(let file, let section, let key, let value, let expected):
            "\(file): [\(section)] \(key) = '\(value)' is not \(expected)"
        case .unsupportedConfig(let file, let reason):
            "\(file): \(reason)"
        case .graphInterface(let file, let reason):
            "\(file): \(reason)"
        }
    }
}
