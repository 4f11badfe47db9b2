import AllocationCounter
import CBLAS
import DeepFilter
import DSP
import Foundation
import Testing

/// The real-time path must not touch the heap: after warm-up, 1000 hops through the stream
/// enhancer (and 1000 10 ms frames through the rate-adapting wrapper at 16 and 44.1 kHz) are
/// processed while the calling thread's allocations are counted by the interposed C allocator
/// (Tests/AllocationCounter). Real audio drives them, so every stage and both decoders run.
@Suite struct StreamAllocationTests {
    static func noisySpeech() throws -> [Float] {
        let manifest = try OfficialReferences.manifest()
        let clip = try #require(manifest.clips.first { $0.name == "white-snr5" })
        return try OfficialReferences.mono(clip.file).channels[0]
    }

    @Test func streamEnhancerAllocatesNothingPerHop() throws {
        // OpenBLAS's threaded SGEMM mallocs a work buffer per call; real-time use is single-threaded.
        openblas_set_num_threads(1)
        var settings = EnhancementSettings.officialDefault
        settings.postFilterBeta = 0.02
        settings.attenuationLimitDecibels = 12
        let enhancer = try StreamEnhancer(bundle: ModelBundle(directory: OfficialReferences.modelDirectory), settings: settings)
        let speech = try Self.noisySpeech()
        let hop = enhancer.hopSize
        var output = [Float](repeating: 0, count: hop)
        var allocations: UInt64 = 0
        speech.withUnsafeBufferPointer { speech in
            output.withUnsafeMutableBufferPointer { output in
                let hops = speech.count / hop
                for t in 0..<20 { enhancer.process(input: UnsafeBufferPointer(rebasing: speech[(t * hop)..<((t + 1) * hop)]), output: output) }
                allocation_counter_start()
                for t in 0..<1000 {
                    let start = (t % hops) * hop
                    enhancer.process(input: UnsafeBufferPointer(rebasing: speech[start..<(start + hop)]), output: output)
                }
                enhancer.reset()
                allocations = allocation_counter_stop()
            }
        }
        #expect(allocations == 0, "\(allocations) heap allocations in 1000 hops and a reset")
    }

    @Test(arguments: [16_000, 44_100])
    func rateAdaptingEnhancerAllocatesNothingPerFrame(sampleRate: Int) throws {
        openblas_set_num_threads(1)
        let enhancer = try RateAdaptingStreamEnhancer(bundle: ModelBundle(directory: OfficialReferences.modelDirectory),
                                                      settings: .upstreamDefault, sampleRate: sampleRate)
        let speech = try StreamingResampler.resample(Self.noisySpeech(), from: 48_000, to: sampleRate)
        let frame = enhancer.samplesPerFrame
        var output = [Float](repeating: 0, count: frame)
        var allocations: UInt64 = 0
        speech.withUnsafeBufferPointer { speech in
            output.withUnsafeMutableBufferPointer { output in
                let frames = speech.count / frame
                for t in 0..<20 { enhancer.process(input: UnsafeBufferPointer(rebasing: speech[(t * frame)..<((t + 1) * frame)]), output: output) }
                allocation_counter_start()
                for t in 0..<1000 {
                    let start = (t % frames) * frame
                    enhancer.process(input: UnsafeBufferPointer(rebasing: speech[start..<(start + frame)]), output: output)
                }
                allocations = allocation_counter_stop()
            }
        }
        #expect(allocations == 0, "\(sampleRate) Hz: \(allocations) heap allocations in 1000 frames")
    }
}
