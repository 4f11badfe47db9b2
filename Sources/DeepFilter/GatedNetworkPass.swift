import DSP

/// One run of the DFN3 network over some frames — one hop, a chunk of hops, or one hop of every
/// stream in a batch — in the official runtime's order: the encoder over the frames, the lsnr
/// gating's decision for each frame it ran for, then each decoder only if some decision asks for
/// it. Conformers say how their plans run those steps; `run(gatedBy:)` owns the order, so that
/// the one-hop, chunked and batched paths cannot drift apart.
///
/// Conformers are structs over preallocated plans and `run(gatedBy:)` is generic (specialised
/// per conformer, never an existential), so a pass allocates nothing and takes no lock.
protocol GatedNetworkPass {
    /// Frames in the pass, including any the encoder does not run for.
    var frameCount: Int { get }
    /// Whether the encoder runs for `frame` (a batch's streams skipped as silence or bypassed do not).
    func encoderRuns(forFrame frame: Int) -> Bool
    func runEncoder()
    /// The encoder's lsnr estimate for `frame`, after `runEncoder()`.
    func lsnr(ofFrame frame: Int) -> Float
    /// Keeps the gating's decision for `frame`: the decoder runs and the spectral stages read it.
    mutating func record(_ decision: LSNRGating.Decision, lsnr: Float, forFrame frame: Int)
    /// Runs the ERB decoder for the `count` (≥ 1) frames whose decisions ask for it.
    func runERBDecoder(forFrames count: Int)
    /// Runs the DF decoder for the `count` (≥ 1) frames whose decisions ask for it.
    func runDeepFilterDecoder(forFrames count: Int)
}

extension GatedNetworkPass {
    mutating func run(gatedBy gating: LSNRGating) {
        runEncoder()
        var erbFrames = 0, deepFilterFrames = 0
        for frame in 0..<frameCount where encoderRuns(forFrame: frame) {
            let lsnr = lsnr(ofFrame: frame)
            let decision = gating.decision(lsnr: lsnr)
            record(decision, lsnr: lsnr, forFrame: frame)
            if decision.runsERBDecoder { erbFrames += 1 }
            if decision.runsDeepFilterDecoder { deepFilterFrames += 1 }
        }
        if erbFrames > 0 { runERBDecoder(forFrames: erbFrames) }
        if deepFilterFrames > 0 { runDeepFilterDecoder(forFrames: deepFilterFrames) }
    }
}
