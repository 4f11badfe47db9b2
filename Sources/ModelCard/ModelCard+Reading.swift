import Foundation
import JSONDocument

extension ModelCard {
    /// Reads and checks the card at `path` (its fields alone; `CardCheck` checks it against its
    /// graphs). - Throws: `CardError` listing every problem, each naming its field.
    public init(contentsOfFile path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CardError(problems: [CardProblem(file: path, field: "", expected: "a readable card file", found: "none (missing or unreadable)")])
        }
        let json: JSONValue
        do {
            json = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw CardError(problems: [CardProblem(file: path, field: "", expected: "JSON text", found: Self.syntaxProblem(error))])
        }
        try self.init(json: json, file: path)
    }

    /// The card `json` holds; `file` names it in problems. - Throws: `CardError` listing every problem.
    public init(json: JSONValue, file: String) throws {
        let problems = CardProblemList()
        let root = CardFieldReader(json, file: file, path: "", problems: problems)
        root.refuseUnknownKeys(["card", "name", "summary", "licence", "source", "sample_rate", "framing", "graphs", "notes"])
        if let version = root.integer("card", in: 0...Int(Int32.max), meaning: "the card format version (\(Self.formatVersion))"),
           version != Self.formatVersion {
            root.note("card", expected: "format version \(Self.formatVersion)", found: "\(version)")
        }
        let name = root.string("name")
        if let name, !Self.isValidName(name) {
            root.note("name", expected: "a model name of lower-case letters, digits, '.', '-' or '_' (at most 64, starting with a letter or digit)", found: "'\(name)'")
        }
        let summary = root.string("summary"), licence = root.string("licence"), source = root.string("source")
        let sampleRate = root.integer("sample_rate", in: 8_000...192_000, meaning: "the model's rate in Hz")
        if let sampleRate, sampleRate % 100 != 0 {
            root.note("sample_rate", expected: "a multiple of 100 Hz (real-time callers take 10 ms frames)", found: "\(sampleRate)")
        }
        let framing = Self.readFraming(root.nested("framing"))
        let graphs = Self.readGraphs(root, framing: framing)
        var notes: [String] = []
        switch root.object["notes"] {
        case nil: break
        case .array(let items)?:
            for (index, item) in items.enumerated() {
                if case .string(let text) = item { notes.append(text) } else {
                    root.note("notes[\(index)]", expected: "a string", found: CardFieldReader.describe(item))
                }
            }
        case let other: root.note("notes", expected: "an array of strings", found: CardFieldReader.describe(other))
        }
        guard problems.problems.isEmpty, let name, let summary, let licence, let source, let sampleRate, let framing, let graphs else {
            throw CardError(problems: problems.problems)
        }
        self.init(name: name, summary: summary, licence: licence, source: source, sampleRate: sampleRate, framing: framing,
                  graphs: graphs, notes: notes)
    }

    static func isValidName(_ name: String) -> Bool {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.-_")
        guard let first = name.first, first.isLetter || first.isNumber, name.count <= 64 else { return false }
        return name.allSatisfy { allowed.contains($0) }
    }

    /// A decoding error in words, with its place in the text where Foundation says it.
    private static func syntaxProblem(_ error: any Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return "text that does not parse (\(underlying ?? context.debugDescription))"
        }
        return "text that does not parse (\(error))"
    }

    private static func readFraming(_ reader: CardFieldReader) -> Framing? {
        reader.refuseUnknownKeys(["frame", "hop", "fft", "start", "centre", "window", "synthesis_window", "normalisation"])
        let limit = 1 << 20
        let frame = reader.integer("frame", in: 1...limit, meaning: "samples per frame")
        let hop = reader.integer("hop", in: 1...limit, meaning: "samples from one frame to the next")
        let fft = reader.integer("fft", in: 2...limit, meaning: "the FFT size")
        if let frame, let hop, hop > frame {
            reader.note("hop", expected: "at most the frame (\(frame) samples)", found: "\(hop)")
        }
        if let frame, let fft, fft < frame {
            reader.note("fft", expected: "at least the frame (\(frame) samples; a frame is zero-padded to the FFT size)", found: "\(fft)")
        }
        var placement: Placement?
        switch (reader.object["start"], reader.object["centre"]) {
        case (nil, nil):
            reader.note("start", expected: "where frame 0 starts (e.g. 0, or -(frame - hop) for a zero history), or \"centre\": \"reflect\"",
                        found: "neither start nor centre")
        case (_?, _?):
            reader.note("centre", expected: "either start or centre, not both", found: "both")
        case (_?, nil):
            if let start = reader.integer("start", in: -limit...0, meaning: "where frame 0 starts, relative to the first sample") {
                if let frame, start <= -frame {
                    reader.note("start", expected: "a frame 0 that reaches the first sample (start > -frame, i.e. > \(-frame))", found: "\(start)")
                } else {
                    placement = .start(start)
                }
            }
        case (nil, .string("reflect")?):
            placement = .centreReflect
            if let frame, let fft, frame != fft {
                reader.note("frame", expected: "the FFT size (\(fft)) with centre framing, as torch.stft has it", found: "\(frame)")
            }
            if let fft, let hop, hop > fft / 2 {
                reader.note("hop", expected: "at most half the FFT size (\(fft / 2)) with centre framing", found: "\(hop)")
            }
        case (nil, let other?):
            reader.note("centre", expected: "'reflect' (torch.stft's center=True)", found: CardFieldReader.describe(other))
        }
        let window = readWindow(reader.nested("window"))
        let synthesisWindow = reader.object["synthesis_window"] == nil ? window : readWindow(reader.nested("synthesis_window"))
        let normalisation = reader.word("normalisation", as: Normalisation.self)
        guard let frame, let hop, let fft, let placement, let window, let synthesisWindow, let normalisation else { return nil }
        return Framing(frame: frame, hop: hop, fft: fft, placement: placement, window: window, synthesisWindow: synthesisWindow,
                       normalisation: normalisation)
    }

    private static func readWindow(_ reader: CardFieldReader) -> Window? {
        reader.refuseUnknownKeys(["kind", "periodic", "power"])
        let kind = reader.word("kind", as: Window.Kind.self)
        let periodic = reader.bool("periodic") ?? true
        let power = reader.number("power", where: { $0 > 0 && $0 <= 16 }, meaning: "a power from 0 (exclusive) to 16", required: false) ?? 1
        return kind.map { Window(kind: $0, periodic: periodic, power: power) }
    }

    private static func readGraphs(_ root: CardFieldReader, framing: Framing?) -> [GraphEntry]? {
        guard case .array(let items)? = root.object["graphs"], !items.isEmpty, items.count <= 16 else {
            root.note("graphs", expected: "an array of 1 to 16 graphs, run in order for each frame", found: CardFieldReader.describe(root.object["graphs"]))
            return nil
        }
        var graphs: [GraphEntry] = []
        var complete = true
        /// What the chain holds after the graphs so far: a changed time block ends the spectral part.
        var timeChanged = false
        for (index, item) in items.enumerated() {
            let reader = CardFieldReader(item, file: root.file, path: "graphs[\(index)]", problems: root.problemList)
            reader.refuseUnknownKeys(["name", "file", "sha256", "time_axis", "inputs", "outputs"])
            let name = reader.string("name")
            if let name {
                if !isValidName(name) {
                    reader.note("name", expected: "a name of lower-case letters, digits, '.', '-' or '_'", found: "'\(name)'")
                } else if graphs.contains(where: { $0.name == name }) {
                    reader.note("name", expected: "a name no other graph of the card has", found: "'\(name)' again")
                }
            }
            let file = reader.string("file")
            if let file, file.hasPrefix("/") || file.split(separator: "/").contains("..") {
                reader.note("file", expected: "a path inside the card's folder (no '/' at the start, no '..')", found: "'\(file)'")
            }
            let sha256 = reader.string("sha256")
            if let sha256, sha256.count != 64 || !sha256.allSatisfy({ "0123456789abcdef".contains($0) }) {
                reader.note("sha256", expected: "64 lower-case hex digits (sha256sum of the file)", found: "'\(sha256)'")
            }
            let timeAxis = reader.string("time_axis", required: false)
            let inputs = readInputs(reader.nested("inputs"), earlier: graphs, timeChanged: timeChanged)
            let outputs = readOutputs(reader.nested("outputs"), timeChanged: &timeChanged)
            if let name, let file, let sha256, let inputs, let outputs {
                graphs.append(GraphEntry(name: name, file: file, sha256: sha256, timeAxis: timeAxis, inputs: inputs, outputs: outputs))
            } else {
                complete = false
            }
        }
        if complete, !graphs.contains(where: { !$0.outputs.isEmpty }) {
            root.note("graphs", expected: "at least one output that acts on the frame (\"apply\": mask, spectrum or time)", found: "none")
        }
        return complete ? graphs : nil
    }

    private static func readInputs(_ reader: CardFieldReader, earlier: [GraphEntry], timeChanged: Bool) -> [String: InputBinding]? {
        guard !reader.object.isEmpty else {
            reader.note("", expected: "every input of the graph with what feeds it", found: "none")
            return nil
        }
        var bindings: [String: InputBinding] = [:]
        var complete = true
        for key in reader.object.keys.sorted() {
            let binding = reader.nested(key)
            binding.refuseUnknownKeys(["feature", "floor", "layout", "state", "start", "from"])
            let given = ["feature", "state", "from"].filter { binding.object[$0] != nil }
            guard given.count == 1 else {
                binding.note(given.isEmpty ? "feature" : given[1], expected: "exactly one of feature, state or from",
                             found: given.isEmpty ? "none" : given.joined(separator: " and "))
                complete = false
                continue
            }
            switch given[0] {
            case "feature":
                guard let feature = readFeature(binding) else { complete = false; continue }
                if timeChanged, feature != .time {
                    binding.note("feature", expected: "'time' (an earlier graph returns a time block; spectral features after it are not supported)",
                                 found: "'\(featureName(feature))'")
                    complete = false
                    continue
                }
                bindings[key] = .feature(feature)
            case "state":
                guard let output = binding.string("state") else { complete = false; continue }
                let start = binding.string("start", required: false)
                if let start, start != "zeros", !start.hasSuffix(".npy") || start.hasPrefix("/") || start.contains("..") {
                    binding.note("start", expected: "'zeros' or a .npy file in the card's folder", found: "'\(start)'")
                    complete = false
                    continue
                }
                bindings[key] = .state(output: output, start: start == "zeros" ? nil : start)
            default:
                guard let from = binding.string("from") else { complete = false; continue }
                let parts = from.split(separator: ".", maxSplits: 1).map(String.init)
                guard parts.count == 2, earlier.contains(where: { $0.name == parts[0] }) else {
                    binding.note("from", expected: "'GRAPH.OUTPUT' naming an earlier graph (\(earlier.isEmpty ? "there is none" : earlier.map(\.name).joined(separator: ", ")))",
                                 found: "'\(from)'")
                    complete = false
                    continue
                }
                bindings[key] = .connection(graph: parts[0], output: parts[1])
            }
        }
        return complete ? bindings : nil
    }

    private static func readFeature(_ binding: CardFieldReader) -> Feature? {
        let names = ["magnitude", "power", "log-power", "complex", "time"]
        guard case .string(let name)? = binding.object["feature"], names.contains(name) else {
            binding.note("feature", expected: CardFieldReader.oneOf(names), found: CardFieldReader.describe(binding.object["feature"]))
            return nil
        }
        if name != "log-power", binding.object["floor"] != nil {
            binding.note("floor", expected: "a floor only with the log-power feature", found: "one with '\(name)'")
        }
        if name != "complex", binding.object["layout"] != nil {
            binding.note("layout", expected: "a layout only with the complex feature", found: "one with '\(name)'")
        }
        switch name {
        case "magnitude": return .magnitude
        case "power": return .power
        case "log-power":
            guard let floor = binding.number("floor", where: { $0 > 0 }, meaning: "the power floor before log10 (e.g. 1e-12): a number > 0") else { return nil }
            return .logPower(floor: floor)
        case "complex":
            return binding.word("layout", as: ComplexLayout.self).map { .complex($0) }
        default: return .time
        }
    }

    static func featureName(_ feature: Feature) -> String {
        switch feature {
        case .magnitude: "magnitude"
        case .power: "power"
        case .logPower: "log-power"
        case .complex: "complex"
        case .time: "time"
        }
    }

    private static func readOutputs(_ reader: CardFieldReader, timeChanged: inout Bool) -> [String: OutputRole]? {
        var roles: [String: OutputRole] = [:]
        var complete = true
        for key in reader.object.keys.sorted() {
            let role = reader.nested(key)
            role.refuseUnknownKeys(["apply", "clip", "layout"])
            let names = ["mask", "spectrum", "time"]
            guard case .string(let name)? = role.object["apply"], names.contains(name) else {
                role.note("apply", expected: CardFieldReader.oneOf(names), found: CardFieldReader.describe(role.object["apply"]))
                complete = false
                continue
            }
            if name != "mask", role.object["clip"] != nil {
                role.note("clip", expected: "a clip range only with a mask", found: "one with '\(name)'")
            }
            if name != "spectrum", role.object["layout"] != nil {
                role.note("layout", expected: "a layout only with a spectrum", found: "one with '\(name)'")
            }
            if name != "time", timeChanged {
                role.note("apply", expected: "'time' (an earlier output changed the time block; spectral outputs after it are not supported)", found: "'\(name)'")
                complete = false
                continue
            }
            switch name {
            case "mask":
                var clip: ClosedRange<Double>?
                switch role.object["clip"] {
                case nil: break
                case .array(let bounds)? where bounds.count == 2:
                    if let low = bounds[0].number, let high = bounds[1].number, low.isFinite, high.isFinite, low <= high {
                        clip = low...high
                    } else {
                        role.note("clip", expected: "[low, high] with finite numbers, low ≤ high", found: "[\(bounds.map { CardFieldReader.describe($0) }.joined(separator: ", "))]")
                        complete = false
                    }
                case let other:
                    role.note("clip", expected: "[low, high]", found: CardFieldReader.describe(other))
                    complete = false
                }
                roles[key] = .mask(clip: clip)
            case "spectrum":
                if let layout = role.word("layout", as: ComplexLayout.self) { roles[key] = .spectrum(layout) } else { complete = false }
            default:
                roles[key] = .time
                timeChanged = true
            }
        }
        return complete ? roles : nil
    }
}
