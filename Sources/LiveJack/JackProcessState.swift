import CJack
import Glibc
import Live
import Realtime
import Synchronization

/// What the JACK process callback reads and writes: the enhancer, the rings to the file thread,
/// the timing histogram and the counters. The callback is a C function (`process`), handed this
/// object as its opaque argument; it allocates nothing, takes no lock and never waits: the file
/// thread fills `playback` ahead and drains `recorded` behind, both lock-free rings.
final class JackProcessState: @unchecked Sendable {
    let enhancer: LiveEnhancer
    let inputPort: OpaquePointer
    let outputPort: OpaquePointer
    /// File samples on their way to the callback (nil: the input port is the source).
    let playback: SampleRing?
    /// Enhanced samples on their way to the output file (nil: nothing is recorded).
    let recorded: SampleRing?
    let times = ProcessingTimeHistogram()
    /// The callback's own input when it plays a file, sized for the largest period JACK allows.
    private let source: UnsafeMutableBufferPointer<Float>
    private let silence: UnsafeMutableBufferPointer<Float>

    let xruns = Atomic<Int>(0)
    let callbacks = Atomic<Int>(0)
    /// Callbacks that found fewer file samples than the period (the file thread fell behind).
    let underruns = Atomic<Int>(0)
    /// Callbacks whose output did not fit into `recorded` (the file thread fell behind).
    let overruns = Atomic<Int>(0)
    /// Set by the file thread once the whole file and the flush are in `playback`.
    let playbackComplete = Atomic<Bool>(false)
    /// The period JACK announced last (its buffer-size callback).
    let periodFrames: Atomic<Int>
    let shutDown = Atomic<Bool>(false)

    static let largestPeriod = 8_192

    init(enhancer: LiveEnhancer, inputPort: OpaquePointer, outputPort: OpaquePointer, playback: SampleRing?, recorded: SampleRing?, periodFrames: Int) {
        self.enhancer = enhancer
        self.inputPort = inputPort
        self.outputPort = outputPort
        self.playback = playback
        self.recorded = recorded
        self.periodFrames = Atomic(periodFrames)
        source = .allocate(capacity: Self.largestPeriod)
        source.initialize(repeating: 0)
        silence = .allocate(capacity: Self.largestPeriod)
        silence.initialize(repeating: 0)
    }

    deinit {
        source.deallocate()
        silence.deallocate()
    }

    /// One JACK cycle of `frames` samples (any count: longer than `largestPeriod` goes in pieces).
    func process(frames: Int) {
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        let input = jack_port_get_buffer(inputPort, jack_nframes_t(frames))?.assumingMemoryBound(to: Float.self)
        guard let output = jack_port_get_buffer(outputPort, jack_nframes_t(frames))?.assumingMemoryBound(to: Float.self) else { return }
        var offset = 0
        while offset < frames {
            let count = min(Self.largestPeriod, frames - offset)
            let piece: UnsafeBufferPointer<Float>
            if let playback {
                let destination = UnsafeMutableBufferPointer(rebasing: source[0..<count])
                let received = playback.read(into: destination)
                if received < count {
                    UnsafeMutableBufferPointer(rebasing: destination[received...]).update(repeating: 0)
                    if !playbackComplete.load(ordering: .acquiring) { underruns.add(1, ordering: .relaxed) }
                }
                piece = UnsafeBufferPointer(destination)
            } else if let input {
                piece = UnsafeBufferPointer(start: input + offset, count: count)
            } else {
                piece = UnsafeBufferPointer(rebasing: silence[0..<count])
            }
            let enhanced = UnsafeMutableBufferPointer(start: output + offset, count: count)
            enhancer.process(piece, into: enhanced)
            if let recorded, recorded.write(UnsafeBufferPointer(enhanced)) < count {
                overruns.add(1, ordering: .relaxed)
            }
            offset += count
        }
        callbacks.add(1, ordering: .relaxed)
        var end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &end)
        times.record(nanoseconds: Int64(end.tv_sec - start.tv_sec) * 1_000_000_000 + Int64(end.tv_nsec - start.tv_nsec))
    }
}

// The C callbacks JACK calls; `argument` is the retained `JackProcessState`.

let jackProcess: JackProcessCallback = { frames, argument in
    guard let argument else { return 0 }
    Unmanaged<JackProcessState>.fromOpaque(argument).takeUnretainedValue().process(frames: Int(frames))
    return 0
}

let jackXRun: JackXRunCallback = { argument in
    guard let argument else { return 0 }
    Unmanaged<JackProcessState>.fromOpaque(argument).takeUnretainedValue().xruns.add(1, ordering: .relaxed)
    return 0
}

let jackBufferSize: JackBufferSizeCallback = { frames, argument in
    guard let argument else { return 0 }
    Unmanaged<JackProcessState>.fromOpaque(argument).takeUnretainedValue().periodFrames.store(Int(frames), ordering: .relaxed)
    return 0
}

let jackShutdown: JackShutdownCallback = { argument in
    guard let argument else { return }
    Unmanaged<JackProcessState>.fromOpaque(argument).takeUnretainedValue().shutDown.store(true, ordering: .relaxed)
}
