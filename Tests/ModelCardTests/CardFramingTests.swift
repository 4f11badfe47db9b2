import Glibc
import ModelCard
import Testing
import TestSupport

/// The quantities a card derives rather than states, against what they must be by definition.
struct CardFramingTests {
    static func framing(frame: Int, hop: Int, fft: Int, placement: ModelCard.Placement) -> ModelCard.Framing {
        ModelCard.Framing(frame: frame, hop: hop, fft: fft, placement: placement, window: .init(kind: .rectangular),
                          synthesisWindow: .init(kind: .rectangular), normalisation: .none)
    }

    /// The latency is the delay after which a stream fed hop by hop has every output sample: after
    /// k hops (k·hop samples in), every frame ending by k·hop has run, so the output is complete up
    /// to where the next frame starts; counted here by walking the frames one by one.
    @Test(arguments: [(512, 128, -384), (320, 160, 0), (960, 512, 0), (512, 256, -256), (400, 160, -100), (480, 480, 0)])
    func latencyIsWhereTheOutputIsCompleteAfterEachHop(frame: Int, hop: Int, start: Int) {
        let framing = Self.framing(frame: frame, hop: hop, fft: frame, placement: .start(start))
        for hops in 4...9 {
            let received = hops * hop
            var next = 0
            while start + next * hop + frame <= received { next += 1 }
            let complete = start + next * hop
            #expect(received - complete == framing.latency, "frame \(frame), hop \(hop), start \(start) after \(hops) hops")
        }
    }

    /// Centred frame t covers [t·hop − fft/2, t·hop + fft/2): after k hops the frames through
    /// k − fft/(2·hop) have run, and the output is complete up to the next one's start.
    @Test func centredFramingLagsByTheFrameLessAHop() {
        #expect(Self.framing(frame: 512, hop: 256, fft: 512, placement: .centreReflect).latency == 256)
        #expect(Self.framing(frame: 512, hop: 128, fft: 512, placement: .centreReflect).latency == 384)
    }

    /// numpy's `np.hanning` (symmetric) and `torch.hann_window` (periodic), by their formulas in Double.
    @Test(arguments: [true, false])
    func hannWindowsFollowTheirDefinitions(periodic: Bool) {
        let length = 320
        let window = ModelCard.Window(kind: .hann, periodic: periodic, power: 0.5).samples(length: length)
        let period = Double(periodic ? length : length - 1)
        for n in 0..<length {
            let expected = (0.5 - 0.5 * cos(2 * Double.pi * Double(n) / period)).squareRoot()
            #expect(abs(Double(window[n]) - expected) <= Tolerance.fewRoundings.bound(magnitude: expected))
        }
        if !periodic { #expect(window[0] == 0 && window[length - 1] == 0) }
    }
}
