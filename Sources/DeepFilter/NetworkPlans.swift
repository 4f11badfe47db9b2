import Inference

/// The three DFN3 graphs planned to run `framesPerRun` frames of `batchSize` streams per call
/// with their time-axis state carried between calls, and the encoder outputs wired to the decoder
/// inputs of the same name: the decoders read them in place. Everything is bound when the plans
/// are made; running allocates nothing.
/// With a batch, each of the buffers below holds the streams one after another (axis 0).
final class NetworkPlans {
    /// An encoder output feeding a decoder input (one buffer within these plans), and how its
    /// frames lie: `feedFrame` copies one frame of it into another set of plans' decoders.
    struct Feed {
        let source: UnsafeMutableBufferPointer<Float>
        let destination: UnsafeMutableBufferPointer<Float>
        let layout: AxisSliceLayout
    }

    let framesPerRun: Int
    let batchSize: Int
    let encoder: StreamingPlan
    let erbDecoder: StreamingPlan
    let dfDecoder: StreamingPlan
    /// Encoder inputs `feat_erb [1, 1, n, nb_erb]` and `feat_spec [1, 2, n, nb_df]`.
    let erbFeature: UnsafeMutableBufferPointer<Float>
    let complexFeature: UnsafeMutableBufferPointer<Float>
    /// Encoder output `lsnr [1, n, 1]`.
    let lsnr: UnsafeMutableBufferPointer<Float>
    /// ERB decoder output `m [1, 1, n, nb_erb]`.
    let mask: UnsafeMutableBufferPointer<Float>
    /// DF decoder output `coefs [1, n, nb_df, 2·order]`.
    let coefficients: UnsafeMutableBufferPointer<Float>
    let erbFeeds: [Feed]
    let dfFeeds: [Feed]

    init(graphs: NetworkGraphs, framesPerRun: Int, batchSize: Int = 1) throws {
        self.framesPerRun = framesPerRun
        self.batchSize = batchSize
        func plan(_ graph: Graph, _ file: String, sharing shared: [String: Tensor] = [:]) throws -> StreamingPlan {
            let plan: StreamingPlan
            do {
                plan = try StreamingPlan(graph: graph, framesPerRun: framesPerRun, batchSize: batchSize, sharedInputs: shared)
            } catch {
                throw EnhancementError.network(graph: file, reason: "cannot be streamed: \(error)")
            }
            guard batchSize == 1 || (plan.inputBatchAxes + plan.outputBatchAxes).allSatisfy({ $0 == 0 }) else {
                throw EnhancementError.network(graph: file, reason: "its inputs and outputs do not all hold the streams along axis 0")
            }
            return plan
        }
        let encoder = try plan(graphs.encoder, ModelBundle.graphFileNames.encoder)
        // The decoders read the encoder's outputs in place: no copy between the runs.
        func encoderOutputs(feeding decoder: Graph) -> [String: Tensor] {
            var shared: [String: Tensor] = [:]
            for name in decoder.inputNames {
                if let position = encoder.outputNames.firstIndex(of: name) { shared[name] = encoder.outputs[position] }
            }
            return shared
        }
        self.encoder = encoder
        erbDecoder = try plan(graphs.erbDecoder, ModelBundle.graphFileNames.erbDecoder, sharing: encoderOutputs(feeding: graphs.erbDecoder))
        dfDecoder = try plan(graphs.dfDecoder, ModelBundle.graphFileNames.dfDecoder, sharing: encoderOutputs(feeding: graphs.dfDecoder))

        func floats(_ plan: StreamingPlan, output name: String, file: String) throws -> UnsafeMutableBufferPointer<Float> {
            guard let floats = plan.output(named: name)?.unsafeMutableFloats else {
                throw EnhancementError.network(graph: file, reason: "no float32 output '\(name)'")
            }
            return floats
        }
        func floats(_ plan: StreamingPlan, input name: String, file: String) throws -> UnsafeMutableBufferPointer<Float> {
            guard let floats = plan.input(named: name)?.unsafeMutableFloats else {
                throw EnhancementError.network(graph: file, reason: "no float32 input '\(name)'")
            }
            return floats
        }
        let encoderFile = ModelBundle.graphFileNames.encoder
        erbFeature = try floats(encoder, input: "feat_erb", file: encoderFile)
        complexFeature = try floats(encoder, input: "feat_spec", file: encoderFile)
        lsnr = try floats(encoder, output: "lsnr", file: encoderFile)
        mask = try floats(erbDecoder, output: "m", file: ModelBundle.graphFileNames.erbDecoder)
        coefficients = try floats(dfDecoder, output: "coefs", file: ModelBundle.graphFileNames.dfDecoder)

        func feeds(into decoder: StreamingPlan, file: String) throws -> [Feed] {
            try decoder.inputNames.enumerated().map { position, name in
                guard let sourcePosition = encoder.outputNames.firstIndex(of: name) else {
                    throw EnhancementError.network(graph: file, reason: "input '\(name)' is not an output of \(encoderFile)")
                }
                let source = encoder.outputs[sourcePosition], destination = decoder.inputs[position]
                guard source.shape == destination.shape, let axis = decoder.inputTimeAxes[position],
                      encoder.outputTimeAxes[sourcePosition] == axis else {
                    throw EnhancementError.network(graph: file, reason: "input '\(name)' \(destination.shape) does not fit \(encoderFile)'s output \(source.shape)")
                }
                return Feed(source: try floats(encoder, output: name, file: encoderFile),
                            destination: try floats(decoder, input: name, file: file),
                            layout: AxisSliceLayout(shape: source.shape, axis: axis))
            }
        }
        erbFeeds = try feeds(into: erbDecoder, file: ModelBundle.graphFileNames.erbDecoder)
        dfFeeds = try feeds(into: dfDecoder, file: ModelBundle.graphFileNames.dfDecoder)
    }

    /// Stream `slot`'s part of `buffer` (one of the buffers above).
    func slot(_ slot: Int, of buffer: UnsafeMutableBufferPointer<Float>) -> UnsafeMutableBufferPointer<Float> {
        let width = buffer.count / batchSize
        return UnsafeMutableBufferPointer(rebasing: buffer[(slot * width)..<((slot + 1) * width)])
    }

    /// Copies frame `frame` of `source`'s encoder outputs into `destination`'s one-frame decoder
    /// inputs (`destination` runs one frame per call).
    static func feedFrame(_ frame: Int, from source: [Feed], framesPerRun: Int, to destination: [Feed]) {
        for (from, to) in zip(source, destination) {
            from.layout.copySlice(frame, of: from.source.baseAddress!, count: framesPerRun,
                                  to: 0, of: to.destination.baseAddress!, count: 1)
        }
    }
}

/// The three DFN3 graphs in the engine's IR, parsed once per bundle.
struct NetworkGraphs: Sendable {
    let encoder: Graph
    let erbDecoder: Graph
    let dfDecoder: Graph

    /// The enhancers run OpenBLAS single-threaded (the real-time path must not allocate, and the
    /// offline and streaming paths must sum in the same order), and OpenBLAS 0.3.21 runs small
    /// SGEMMs ~3.5× slower until one large one has run in the process.
    private static let openBLASWarmUp: Void = {
        GEMMKernel.runSingleThreaded()
        GEMMKernel.warmUp()
    }()

    init(bundle: ModelBundle) throws {
        Self.openBLASWarmUp
        encoder = try Graph(model: bundle.encoder)
        erbDecoder = try Graph(model: bundle.erbDecoder)
        dfDecoder = try Graph(model: bundle.dfDecoder)
    }
}
