/// The options given for one run, by option name; unset ones keep the model's defaults. Made
/// from text (a command line), from typed values (a manifest, the C ABI) or in code, and checked
/// against the options a model declares before an enhancer is built.
public struct EnhancerOptions: Sendable, Hashable, CustomStringConvertible {
    /// The given values, by `EnhancerOption.name`.
    public private(set) var values: [String: EnhancerOptionValue]

    public init(_ values: [String: EnhancerOptionValue] = [:]) {
        self.values = values
    }

    public subscript(name: String) -> EnhancerOptionValue? {
        get { values[name] }
        set { values[name] = newValue }
    }

    public var isEmpty: Bool { values.isEmpty }

    /// The value given for `option`, else its default.
    public func value(of option: EnhancerOption) -> EnhancerOptionValue {
        values[option.name] ?? option.defaultValue
    }

    /// Throws, naming the option, when one is set that `model` does not take or a value its
    /// option does not accept.
    public func check(against model: any EnhancerModel) throws {
        try check(against: model.options, modelName: model.name)
    }

    /// - Throws: `EnhancerError.unsupported` naming an option not among `options`, or a value out of range.
    public func check(against options: [EnhancerOption], modelName: String) throws {
        for name in values.keys.sorted() {
            guard let option = options.first(where: { $0.name == name }) else {
                let takes = options.map(\.flag)
                throw EnhancerError.unsupported(
                    "\(modelName) has no --\(name) (it takes \(takes.isEmpty ? "no options" : takes.joined(separator: ", ")))")
            }
            _ = try option.checked(values[name]!)
        }
    }

    /// The given values by their record keys (`atten_lim_db`), as manifests and results records spell them.
    public func keyed(by options: [EnhancerOption]) -> [String: EnhancerOptionValue] {
        var keyed: [String: EnhancerOptionValue] = [:]
        for (name, value) in values {
            keyed[options.first { $0.name == name }?.key ?? name] = value
        }
        return keyed
    }

    /// `--name value` pairs in name order, e.g. `--atten-lim 12 --pf-beta 0.02`.
    public var description: String {
        values.keys.sorted().map { "--\($0) \(values[$0]!)" }.joined(separator: " ")
    }
}
