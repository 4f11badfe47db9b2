import DSP
import Inference

/// DFN3 in real time for many independent streams at once: each call to `process()` advances
/// every joined stream by one hop (10 ms), exactly as a `StreamEnhancer` per stream would, but
/// runs the network once for all of them — every weight matrix is read once per hop for the
/// whole batch (SGEMM over the streams instead of one SGEMV per stream), which is what lets one
/// core carry many streams.
///
/// Streams join and leave between calls, up to `capacity` at once. The network runs at the
/// smallest planned batch size (1, 2, 4, … up to `capacity`) that holds the joined streams; their
/// states move when that size changes. A stream skipped as silence, bypassed, or gated out of a
/// decoder keeps that graph's state as it was, as it would on its own.
///
/// After `init`, `join`, `leave` and `process` allocate nothing, take no lock, do no I/O and
/// cannot throw; call them from one thread. OpenBLAS must run single-threaded.
public final class StreamBatch {
    /// A joined stream's handle; it stays valid until the stream leaves. Handles belong to the
    /// batch that made them: passing one to another batch is a programming error and traps.
    public struct Stream: Hashable, Sendable {
        fileprivate let batch: ObjectIdentifier
        fileprivate let member: Int
    }

    /// One stream's own part: its signal chain and its hop buffers.
    private final class Member {
        let channel: SpectralChannel
        let input: UnsafeMutableBufferPointer<Float>
        let output: UnsafeMutableBufferPointer<Float>
        var lsnr: Float = 0
        /// Where the stream sits in the batch; nil while the member is free.
        var position: Int?
        /// Whether this hop was analysed (the network runs for it).
        var analysed = false
        var decision = LSNRGating.Decision.full

        init(config: ModelConfig, settings: EnhancementSettings) throws {
            channel = try SpectralChannel(config: config, settings: settings)
            input = .allocate(capacity: config.hopSize)
            input.initialize(repeating: 0)
            output = .allocate(capacity: config.hopSize)
            output.initialize(repeating: 0)
        }

        deinit {
            input.deallocate()
            output.deallocate()
        }
    }

    public let config: ModelConfig
    public let settings: EnhancementSettings
    /// The most streams that can be joined at once.
    public let capacity: Int
    private let gating: LSNRGating
    private let members: [Member]
    /// The network at each planned batch size, smallest first.
    private let ladder: [NetworkPlans]
    private var rung = 0
    /// Member index at each batch position; the first `streamCount` entries are in use.
    private var positions: [Int]
    public private(set) var streamCount = 0
    /// Per position, a snapshot of one stream's state in each graph (kept across a run, or moved
    /// between batch sizes).
    private let encoderSnapshots: [StreamingState]
    private let erbDecoderSnapshots: [StreamingState]
    private let dfDecoderSnapshots: [StreamingState]

    public init(bundle: ModelBundle, capacity: Int, settings: EnhancementSettings = .officialDefault) throws {
        guard capacity >= 1, capacity <= 4096 else {
            throw EnhancementError.unsupported("a stream batch holds 1…4096 streams, not \(capacity)")
        }
        config = bundle.config
        self.settings = settings
        self.capacity = capacity
        gating = settings.gating
        let graphs = try NetworkGraphs(bundle: bundle)
        var sizes: [Int] = []
        var size = 1
        while size < capacity {
            sizes.append(size)
            size *= 2
        }
        ladder = try (sizes + [capacity]).map { try NetworkPlans(graphs: graphs, framesPerRun: 1, batchSize: $0) }
        members = try (0..<capacity).map { _ in try Member(config: bundle.config, settings: settings) }
        positions = Array(repeating: 0, count: capacity)
        let largest = ladder[ladder.count - 1]
        encoderSnapshots = (0..<capacity).map { _ in largest.encoder.makeSlotState() }
        erbDecoderSnapshots = (0..<capacity).map { _ in largest.erbDecoder.makeSlotState() }
        dfDecoderSnapshots = (0..<capacity).map { _ in largest.dfDecoder.makeSlotState() }
    }

    /// Samples per stream per call (`hop_size`).
    public var hopSize: Int { config.hopSize }

    /// Algorithmic delay from input to output, in samples at the model's rate.
    public var latency: Int { config.latencySamples }

    /// The batch size the network currently runs at (the smallest planned size ≥ `streamCount`).
    public var networkBatchSize: Int { ladder[rung].batchSize }

    /// Adds a stream in the state of a fresh `StreamEnhancer`; nil when `capacity` streams are
    /// already joined.
    public func join() -> Stream? {
        guard streamCount < capacity, let free = members.firstIndex(where: { $0.position == nil }) else { return nil }
        if ladder[rung].batchSize < streamCount + 1 {
            move(to: rung(holding: streamCount + 1))
        }
        let member = members[free], position = streamCount
        member.channel.reset()
        member.input.update(repeating: 0)
        member.output.update(repeating: 0)
        member.lsnr = 0
        member.position = position
        positions[position] = free
        streamCount += 1
        let plans = ladder[rung]
        plans.encoder.resetState(slot: position)
        plans.erbDecoder.resetState(slot: position)
        plans.dfDecoder.resetState(slot: position)
        return Stream(batch: ObjectIdentifier(self), member: free)
    }

    /// Removes a stream; the last stream in the batch takes its place. Leaving twice does nothing.
    public func leave(_ stream: Stream) {
        guard owns(stream), let position = members[stream.member].position else { return }
        let last = streamCount - 1
        if position != last {
            moveState(from: ladder[rung], slot: last, to: ladder[rung], slot: position)
            positions[position] = positions[last]
            members[positions[position]].position = position
        }
        members[stream.member].position = nil
        streamCount -= 1
        let fitting = rung(holding: streamCount)
        if streamCount == 0 {
            rung = 0
        } else if ladder[rung].batchSize >= 4 * ladder[fitting].batchSize {
            move(to: fitting)
        }
    }

    /// Whether `stream` is joined.
    public func contains(_ stream: Stream) -> Bool {
        owns(stream) && members[stream.member].position != nil
    }

    /// The stream's input hop: write `hopSize` samples here before `process()`.
    public func input(of stream: Stream) -> UnsafeMutableBufferPointer<Float> { member(stream).input }

    /// The stream's output hop after `process()`: its input delayed by `latency`, enhanced.
    public func output(of stream: Stream) -> UnsafeBufferPointer<Float> { UnsafeBufferPointer(member(stream).output) }

    /// The encoder's local SNR estimate of the stream's last hop, in dB (−15 when skipped as
    /// silence, 35 when bypassed).
    public func lsnr(of stream: Stream) -> Float { member(stream).lsnr }

    /// NaN and ±Inf samples of the stream's input replaced by zero so far.
    public func nonFiniteSampleCount(of stream: Stream) -> Int { member(stream).channel.nonFiniteSampleCount }

    private func owns(_ stream: Stream) -> Bool {
        stream.batch == ObjectIdentifier(self) && stream.member >= 0 && stream.member < capacity
    }

    private func member(_ stream: Stream) -> Member {
        precondition(owns(stream), "a StreamBatch.Stream from another batch")
        return members[stream.member]
    }

    /// Advances every joined stream by one hop: reads each `input(of:)`, writes each `output(of:)`.
    public func process() {
        let plans = ladder[rung], count = streamCount
        var analysed = 0
        for position in 0..<count {
            let member = members[positions[position]]
            switch member.channel.start(hop: UnsafeBufferPointer(member.input), output: member.output,
                                        erbFeature: plans.slot(position, of: plans.erbFeature),
                                        complexFeature: plans.slot(position, of: plans.complexFeature)) {
            case .finished(let lsnr):
                member.lsnr = lsnr
                member.analysed = false
            case .analysed:
                member.analysed = true
                analysed += 1
            }
        }
        guard analysed > 0 else { return }
        var pass = Pass(batch: self, plans: plans)
        pass.run(gatedBy: gating)
        for position in 0..<count {
            let member = members[positions[position]]
            guard member.analysed else { continue }
            member.channel.finish(decision: member.decision,
                                  mask: UnsafeBufferPointer(plans.slot(position, of: plans.mask)),
                                  coefficients: UnsafeBufferPointer(plans.slot(position, of: plans.coefficients)),
                                  into: member.output)
        }
    }

    /// One hop of every joined stream through the plans of the current batch size.
    private struct Pass: GatedNetworkPass {
        let batch: StreamBatch
        let plans: NetworkPlans

        var frameCount: Int { batch.streamCount }

        func encoderRuns(forFrame position: Int) -> Bool { member(position).analysed }

        func runEncoder() {
            batch.run(plans.encoder, snapshots: batch.encoderSnapshots, runsFor: { $0.analysed })
        }

        func lsnr(ofFrame position: Int) -> Float { plans.slot(position, of: plans.lsnr)[0] }

        func record(_ decision: LSNRGating.Decision, lsnr: Float, forFrame position: Int) {
            let member = member(position)
            member.lsnr = lsnr
            member.decision = decision
        }

        func runERBDecoder(forFrames count: Int) {
            batch.run(plans.erbDecoder, snapshots: batch.erbDecoderSnapshots, runsFor: { $0.analysed && $0.decision.runsERBDecoder })
        }

        func runDeepFilterDecoder(forFrames count: Int) {
            batch.run(plans.dfDecoder, snapshots: batch.dfDecoderSnapshots, runsFor: { $0.analysed && $0.decision.runsDeepFilterDecoder })
        }

        private func member(_ position: Int) -> Member { batch.members[batch.positions[position]] }
    }

    /// Runs one graph for the whole batch; the streams it is not meant to run for keep their state.
    private func run(_ plan: StreamingPlan, snapshots: [StreamingState], runsFor runs: (Member) -> Bool) {
        for position in 0..<streamCount where !runs(members[positions[position]]) {
            try? plan.saveState(slot: position, into: snapshots[position])
        }
        plan.run()
        for position in 0..<streamCount where !runs(members[positions[position]]) {
            try? plan.restoreState(slot: position, from: snapshots[position])
        }
    }

    /// The smallest planned batch size holding `count` streams.
    private func rung(holding count: Int) -> Int {
        ladder.firstIndex { $0.batchSize >= count } ?? ladder.count - 1
    }

    /// Makes the network run at batch size `ladder[target]`, moving the joined streams' states.
    private func move(to target: Int) {
        for position in 0..<streamCount {
            moveState(from: ladder[rung], slot: position, to: ladder[target], slot: position)
        }
        rung = target
    }

    /// Copies one stream's state in all three graphs from `slot` of `source` to `target` of
    /// `destination`, through the snapshots of position `target`.
    private func moveState(from source: NetworkPlans, slot: Int, to destination: NetworkPlans, slot target: Int) {
        // The snapshots were made by this batch's plans for one stream: these calls cannot throw.
        func move(_ from: StreamingPlan, _ to: StreamingPlan, _ snapshot: StreamingState) {
            try? from.saveState(slot: slot, into: snapshot)
            try? to.restoreState(slot: target, from: snapshot)
        }
        move(source.encoder, destination.encoder, encoderSnapshots[target])
        move(source.erbDecoder, destination.erbDecoder, erbDecoderSnapshots[target])
        move(source.dfDecoder, destination.dfDecoder, dfDecoderSnapshots[target])
    }
}
