import CBLAS
import DSP
import Foundation
import Testing
import TestSupport
import DeepFilter

/// A batch of streams against the official runtime: each reference clip is one stream, joining
/// at its own step, among noise streams that join and leave around it; the network's batch size
/// moves up and down the planned sizes (1, 2, 4, 8) as they do, carrying every state along.
@Suite struct StreamBatchTests {
    /// One stream of a schedule: its input (already zero-padded to whole hops plus the flush
    /// hops) and the step it joins at; it leaves after its last hop.
    struct Scheduled {
        let name: String
        let input: [Float]
        let joinStep: Int
        var output: [Float] = []
        var stream: StreamBatch.Stream?

        init(name: String, samples: [Float], joinStep: Int, hop: Int, latency: Int) {
            self.name = name
            let hops = (samples.count + hop - 1) / hop + latency / hop
            input = samples + [Float](repeating: 0, count: hops * hop - samples.count)
            self.joinStep = joinStep
        }
    }

    /// Runs the schedule through `batch`; returns each stream's output (as long as its input) and
    /// the network batch sizes seen.
    static func run(_ schedule: [Scheduled], through batch: StreamBatch) throws -> (outputs: [String: [Float]], sizes: [Int]) {
        let hop = batch.hopSize
        var streams = schedule
        var outputs: [String: [Float]] = [:]
        var sizes: [Int] = []
        let lastStep = streams.map { $0.joinStep + $0.input.count / hop }.max() ?? 0
        for step in 0..<lastStep {
            for index in streams.indices {
                let hops = streams[index].input.count / hop
                if step == streams[index].joinStep {
                    let joined = try #require(batch.join(), "\(streams[index].name): the batch is full at step \(step)")
                    streams[index].stream = joined
                } else if step == streams[index].joinStep + hops, let stream = streams[index].stream {
                    batch.leave(stream)
                    #expect(!batch.contains(stream))
                    streams[index].stream = nil
                }
            }
            for scheduled in streams {
                guard let stream = scheduled.stream else { continue }
                let start = (step - scheduled.joinStep) * hop
                _ = batch.input(of: stream).update(fromContentsOf: scheduled.input[start..<(start + hop)])
            }
            batch.process()
            if sizes.last != batch.networkBatchSize { sizes.append(batch.networkBatchSize) }
            for index in streams.indices {
                guard let stream = streams[index].stream else { continue }
                streams[index].output.append(contentsOf: batch.output(of: stream))
            }
        }
        for scheduled in streams {
            if let stream = scheduled.stream { batch.leave(stream) }
            outputs[scheduled.name] = scheduled.output
        }
        return (outputs, sizes)
    }

    static func noise(seconds: Double, seed: UInt64) -> [Float] {
        var generator = SplitMix64(seed: seed)
        return (0..<Int(seconds * 48_000)).map { _ in 0.05 * Float(generator.nextGaussian()) }
    }

    /// Bar and reason: those of StreamEnhancerTests (1e-5 absolute, 100 dB): the batch sums the
    /// same products as the official runtime in other orders (SGEMM over the streams), ~1e-7.
    @Test func everyStreamMatchesTheOfficialRuntime() throws {
        openblas_set_num_threads(1)
        let manifest = try OfficialReferences.manifest()
        let bundle = try ModelBundle(directory: OfficialReferences.modelDirectory)
        let batch = try StreamBatch(bundle: bundle, capacity: 8)
        let hop = batch.hopSize, latency = batch.latency
        var schedule: [Scheduled] = []
        var references: [String: [Float]] = [:]
        for (index, clip) in manifest.clips.filter({ $0.sampleRate == 48_000 }).enumerated() {
            let output = try #require(clip.outputs.first { $0.settings == "default" })
            references[clip.name] = try OfficialReferences.mono(output.file).channels[0]
            schedule.append(Scheduled(name: clip.name, samples: try OfficialReferences.mono(clip.file).channels[0],
                                      joinStep: [0, 13, 29][index % 3], hop: hop, latency: latency))
        }
        // Noise streams that fill the batch to 7 early on and leave while the clips go on.
        for index in 0..<4 {
            schedule.append(Scheduled(name: "noise\(index)", samples: Self.noise(seconds: 0.3 + 0.2 * Double(index), seed: UInt64(index)),
                                      joinStep: 3 + 7 * index, hop: hop, latency: latency))
        }
        let (outputs, sizes) = try Self.run(schedule, through: batch)
        print("network batch sizes over the run: \(sizes)")
        #expect(sizes.contains(8) && sizes.last.map { $0 < 8 } == true, "the batch size should grow to 8 and shrink again: \(sizes)")
        for (name, reference) in references {
            let streamed = try #require(outputs[name])
            #expect(streamed.count == reference.count)
            let comparison = SignalComparison(reference: reference, test: streamed)
            #expect(comparison.maximumAbsoluteDifference <= Float(Tolerance.approximate.absolute), "\(name): max |diff| \(comparison.maximumAbsoluteDifference)")
            #expect(comparison.snrDecibels >= 100, "\(name): SNR \(comparison.snrDecibels) dB")
            print("batched \(name): max |diff| \(comparison.maximumAbsoluteDifference), SNR \(comparison.snrDecibels) dB")
        }
    }

    /// With the upstream thresholds (−10, 30, 20) the decoders sit out some frames of some
    /// streams while they run for others in the same batch; each stream must come out as its own
    /// `StreamEnhancer` makes it (itself checked against the official runtime and the offline
    /// path). Bar: 1e-5, as above: the same products summed in other orders.
    @Test func gatedStreamsKeepTheirOwnDecoderState() throws {
        openblas_set_num_threads(1)
        let manifest = try OfficialReferences.manifest()
        let bundle = try ModelBundle(directory: OfficialReferences.modelDirectory)
        let batch = try StreamBatch(bundle: bundle, capacity: 4, settings: .upstreamDefault)
        var schedule: [Scheduled] = []
        for (index, clip) in manifest.clips.filter({ $0.sampleRate == 48_000 }).enumerated() {
            schedule.append(Scheduled(name: clip.name, samples: try OfficialReferences.mono(clip.file).channels[0],
                                      joinStep: 5 * index, hop: batch.hopSize, latency: batch.latency))
        }
        let (outputs, _) = try Self.run(schedule, through: batch)
        for scheduled in schedule {
            let alone = StreamEnhancerTests.stream(scheduled.input, through: try StreamEnhancer(bundle: bundle, settings: .upstreamDefault))
            let batched = try #require(outputs[scheduled.name])
            let comparison = SignalComparison(reference: Array(alone.prefix(batched.count)), test: batched)
            #expect(comparison.maximumAbsoluteDifference <= Float(Tolerance.approximate.absolute), "\(scheduled.name): max |diff| \(comparison.maximumAbsoluteDifference)")
        }
    }

    @Test func joinRefusesBeyondCapacityAndLeaveFreesASlot() throws {
        let batch = try StreamBatch(bundle: ModelBundle(directory: OfficialReferences.modelDirectory), capacity: 3)
        let streams = (0..<3).compactMap { _ in batch.join() }
        #expect(streams.count == 3 && Set(streams).count == 3)
        #expect(batch.join() == nil)
        batch.leave(streams[1])
        batch.leave(streams[1])
        #expect(batch.streamCount == 2)
        #expect(batch.join() != nil)
        let other = try StreamBatch(bundle: ModelBundle(directory: OfficialReferences.modelDirectory), capacity: 3)
        let foreign = try #require(other.join())
        #expect(!batch.contains(foreign), "a handle from another batch is not this batch's stream")
        batch.leave(foreign)
        #expect(batch.streamCount == 3 && other.contains(foreign))
        #expect(throws: EnhancementError.self) { try StreamBatch(bundle: ModelBundle(directory: OfficialReferences.modelDirectory), capacity: 0) }
    }

    /// The real-time path of a batch: 1000 steps of speech streams, every 50 steps three streams
    /// joining (2 → 5: the network grows from batch 2 to 8) or the first three leaving (5 → 2:
    /// states move within the batch and back to batch 2), counted by the interposed allocator.
    @Test func processJoinAndLeaveAllocateNothing() throws {
        openblas_set_num_threads(1)
        let speech = try StreamAllocationTests.noisySpeech()
        let batch = try StreamBatch(bundle: ModelBundle(directory: OfficialReferences.modelDirectory), capacity: 8,
                                    settings: .upstreamDefault)
        var streams = (0..<2).compactMap { _ in batch.join() }
        let hop = batch.hopSize, hops = speech.count / hop
        var allocations: UInt64 = 0
        speech.withUnsafeBufferPointer { speech in
            func step(_ index: Int) {
                for (offset, stream) in streams.enumerated() {
                    let start = ((index + 17 * offset) % hops) * hop
                    _ = batch.input(of: stream).update(fromContentsOf: speech[start..<(start + hop)])
                }
                batch.process()
            }
            for index in 0..<20 { step(index) }
            streams.reserveCapacity(16)
            allocations = fewestAllocations {
                for index in 20..<1020 {
                    if index % 50 == 0 {
                        let joining = streams.count == 2
                        for _ in 0..<3 {
                            if joining {
                                if let stream = batch.join() { streams.append(stream) }
                            } else {
                                batch.leave(streams.removeFirst())
                            }
                        }
                    }
                    step(index)
                }
            }
        }
        #expect(allocations == 0, "\(allocations) heap allocations in 1000 steps with joins and leaves")
    }
}
