import CJack
import DSP
import Enhancement
import Foundation
import Live
import Realtime
import Synchronization

/// `dfkit live --jack`: one JACK client with an input and an output port, any enhancer between
/// them inside the process callback. With an input file, the file is played into the enhancer
/// instead of the input port (and on to the output port), followed by `latency` samples of
/// silence that bring its end out; the run stops when all of it has come out. With an output
/// file, the enhanced signal is written aligned with the input, as `dfkit enhance --streaming`
/// writes it: the first `latency` output samples dropped, and as many samples as the input had.
///
/// The files are read and written on the calling thread (never the JACK thread), through two
/// lock-free rings the callback reads and fills.
public final class JackLiveSession {
    public struct Configuration: Sendable {
        public var clientName = "dfkit"
        public var inputPath: String?
        public var outputPath: String?
        /// Stop after this long (without an input file, the only way to stop besides a signal).
        public var seconds: Double?
        /// Connect to the first physical capture and playback ports.
        public var connectsPhysicalPorts = true
        /// Re-block for any period (latency frame − 1), for a server whose period changes while
        /// the client runs (`jack_bufsize`); otherwise the period at activation, whose latency
        /// (frame − gcd(period, frame)) is smaller but which a later period would make late.
        public var acceptsAnyPeriod = false

        public init(inputPath: String? = nil, outputPath: String? = nil, seconds: Double? = nil) {
            self.inputPath = inputPath
            self.outputPath = outputPath
            self.seconds = seconds
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let model: any EnhancerModel
    private let options: EnhancerOptions
    private let configuration: Configuration

    public init(model: any EnhancerModel, options: EnhancerOptions, configuration: Configuration) throws {
        try options.check(against: model)
        self.model = model
        self.options = options
        self.configuration = configuration
    }

    /// The server name this process would reach (JACK_DEFAULT_SERVER, else "default").
    public static var serverName: String {
        ProcessInfo.processInfo.environment["JACK_DEFAULT_SERVER"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
    }

    /// Runs until the input file has come out, `seconds` have passed or the server goes away.
    /// `shouldStop` is polled every few milliseconds (a signal handler's flag, say).
    public func run(shouldStop: () -> Bool = { false }) throws -> JackLiveReport {
        let reader = try configuration.inputPath.map { try AudioFileReader(path: $0) }
        var status = jack_status_t(rawValue: 0)
        guard let client = dfkit_jack_client_open(configuration.clientName, JackNoStartServer, &status) else {
            throw Failure(description: "cannot reach the JACK server '\(Self.serverName)' (status 0x\(String(status.rawValue, radix: 16))): start one, e.g. jackd -d dummy -r 48000 -p 256, or set JACK_DEFAULT_SERVER")
        }
        defer { jack_client_close(client) }
        let sampleRate = Int(jack_get_sample_rate(client))
        let period = Int(jack_get_buffer_size(client))
        if let reader, reader.sampleRate != sampleRate {
            throw Failure(description: "\(reader.path) is \(reader.sampleRate) Hz but the JACK server runs at \(sampleRate) Hz; convert the file or start the server at its rate")
        }
        let enhancer = try LiveEnhancer(enhancer: model.makeStreamingEnhancer(options: options), sampleRate: sampleRate,
                                        blockSizes: configuration.acceptsAnyPeriod ? .any : .fixed(period))
        guard let inputPort = jack_port_register(client, "in", JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsInput.rawValue), 0),
              let outputPort = jack_port_register(client, "out", JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsOutput.rawValue), 0) else {
            throw Failure(description: "JACK refused to register the ports in and out of client \(configuration.clientName)")
        }
        // Two seconds of slack each way: the file thread wakes every 5 ms.
        let ringCapacity = 2 * sampleRate + 2 * JackProcessState.largestPeriod
        let state = JackProcessState(
            enhancer: enhancer, inputPort: inputPort, outputPort: outputPort,
            playback: reader == nil ? nil : try SampleRing(minimumCapacity: ringCapacity),
            recorded: configuration.outputPath == nil && reader == nil ? nil : try SampleRing(minimumCapacity: ringCapacity),
            periodFrames: period)
        let writer = try configuration.outputPath.map { try AudioFileWriter(path: $0, sampleRate: sampleRate, channelCount: 1, encoding: .float32) }
        // The flush covers the latency and the last callback, whatever period the server runs then.
        let feeder = reader.map { FileFeeder(reader: $0, flush: enhancer.latency + (configuration.acceptsAnyPeriod ? JackProcessState.largestPeriod : period)) }
        feeder?.fill(state.playback!, completion: state.playbackComplete)

        // Locked pages cannot be paged out (or faulted in) under the callback; refused without the
        // privilege (RLIMIT_MEMLOCK), which the report says.
        let memoryLocked = mlockall(MCL_CURRENT | MCL_FUTURE) == 0
        defer { if memoryLocked { munlockall() } }
        let context = Unmanaged.passRetained(state)
        defer { context.release() }
        let argument = context.toOpaque()
        jack_set_process_callback(client, jackProcess, argument)
        jack_set_xrun_callback(client, jackXRun, argument)
        jack_set_buffer_size_callback(client, jackBufferSize, argument)
        jack_on_shutdown(client, jackShutdown, argument)
        guard jack_activate(client) == 0 else { throw Failure(description: "jack_activate failed") }
        if configuration.connectsPhysicalPorts {
            connect(client, port: outputPort, toPhysical: JackPortIsInput, outgoing: true)
            if reader == nil { connect(client, port: inputPort, toPhysical: JackPortIsOutput, outgoing: false) }
        }

        let began = ContinuousClock.now
        var recorder = OutputRecorder(writer: writer, latency: enhancer.latency, inputFrames: reader?.frameCount)
        var loadSum = 0.0, loadCount = 0, loadMaximum = 0.0
        var lastLoadSample = began
        let scratch = UnsafeMutableBufferPointer<Float>.allocate(capacity: ringCapacity)
        defer { scratch.deallocate() }
        while true {
            feeder?.fill(state.playback!, completion: state.playbackComplete)
            if let recorded = state.recorded {
                let count = recorded.read(into: scratch)
                try recorder.take(UnsafeBufferPointer(rebasing: scratch[0..<count]))
            }
            let now = ContinuousClock.now
            if now - lastLoadSample >= .milliseconds(100) {
                let load = Double(jack_cpu_load(client))
                loadSum += load
                loadCount += 1
                loadMaximum = max(loadMaximum, load)
                lastLoadSample = now
            }
            if state.shutDown.load(ordering: .relaxed) { throw Failure(description: "the JACK server shut down during the run") }
            if let seconds = configuration.seconds, now - began >= .seconds(seconds) { break }
            if reader != nil, recorder.isComplete { break }
            if shouldStop() { break }
            usleep(5_000)
        }
        let elapsed = began.duration(to: .now)
        jack_deactivate(client)
        if let recorded = state.recorded {
            let count = recorded.read(into: scratch)
            try recorder.take(UnsafeBufferPointer(rebasing: scratch[0..<count]))
        }
        let outputFrames = try recorder.finish()

        let times = state.times
        let periodMilliseconds = Double(period) * 1000 / Double(sampleRate)
        func ms(_ fraction: Double) -> Double { times.percentileMilliseconds(fraction) }
        return JackLiveReport(
            model: model.name, server: Self.serverName, sampleRate: sampleRate, periodFrames: state.periodFrames.load(ordering: .relaxed),
            latencySamples: enhancer.latency, latencyMilliseconds: Double(enhancer.latency) * 1000 / Double(sampleRate),
            realtime: jack_is_realtime(client) != 0, memoryLocked: memoryLocked,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18,
            callbacks: state.callbacks.load(ordering: .relaxed), xruns: state.xruns.load(ordering: .relaxed),
            dspLoadPercent: .init(mean: loadCount > 0 ? loadSum / Double(loadCount) : 0, max: loadMaximum),
            processingMs: .init(mean: times.meanMilliseconds, p50: ms(0.5), p90: ms(0.9), p99: ms(0.99), p999: ms(0.999), max: times.maximumMilliseconds),
            callbackLoad: .init(mean: times.meanMilliseconds / periodMilliseconds, max: times.maximumMilliseconds / periodMilliseconds),
            underruns: state.underruns.load(ordering: .relaxed), overruns: state.overruns.load(ordering: .relaxed),
            nonFiniteInputSamples: enhancer.nonFiniteInputCount, enhancerFailures: enhancer.failureCount,
            lateSamples: enhancer.lateSamples, inputFrames: reader?.frameCount, outputFrames: writer == nil ? nil : outputFrames)
    }

    private func connect(_ client: OpaquePointer, port: OpaquePointer, toPhysical direction: JackPortFlags, outgoing: Bool) {
        guard let ports = jack_get_ports(client, nil, JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsPhysical.rawValue | direction.rawValue)) else { return }
        defer { jack_free(ports) }
        guard let first = ports[0] else { return }
        let own = jack_port_name(port)
        _ = outgoing ? jack_connect(client, own, first) : jack_connect(client, first, own)
    }
}

/// Reads the input file into the playback ring ahead of the callback, then `flush` zeros.
private final class FileFeeder {
    private let reader: AudioFileReader
    private var flushRemaining: Int
    private var ended = false
    private let interleaved: UnsafeMutableBufferPointer<Float>
    private let mono: UnsafeMutableBufferPointer<Float>
    private static let chunkFrames = 4_096

    init(reader: AudioFileReader, flush: Int) {
        self.reader = reader
        flushRemaining = flush
        interleaved = .allocate(capacity: Self.chunkFrames * reader.channelCount)
        mono = .allocate(capacity: Self.chunkFrames)
    }

    deinit {
        interleaved.deallocate()
        mono.deallocate()
    }

    /// Tops `ring` up; sets `completion` once the file and the flush are all in.
    func fill(_ ring: SampleRing, completion: borrowing Atomic<Bool>) {
        while !ended, ring.writableCount >= Self.chunkFrames {
            guard let frames = try? reader.read(into: interleaved), frames > 0 else {
                ended = true
                break
            }
            for frame in 0..<frames { mono[frame] = interleaved[frame * reader.channelCount] }
            ring.write(UnsafeBufferPointer(rebasing: mono[0..<frames]))
        }
        if ended, flushRemaining > 0 {
            flushRemaining -= ring.writeZeros(count: flushRemaining)
            if flushRemaining == 0 { completion.store(true, ordering: .releasing) }
        }
    }
}

/// Writes the enhanced stream aligned with the input: the first `latency` samples dropped, and
/// no more than the input's frame count when there is an input file.
private struct OutputRecorder {
    let writer: AudioFileWriter?
    private var toSkip: Int
    private let limit: Int?
    private(set) var written = 0

    init(writer: AudioFileWriter?, latency: Int, inputFrames: Int?) {
        self.writer = writer
        toSkip = latency
        limit = inputFrames
    }

    var isComplete: Bool { limit.map { written >= $0 } ?? false }

    mutating func take(_ samples: UnsafeBufferPointer<Float>) throws {
        let skipped = min(toSkip, samples.count)
        toSkip -= skipped
        var kept = UnsafeBufferPointer(rebasing: samples[skipped...])
        if let limit { kept = UnsafeBufferPointer(rebasing: kept[0..<min(kept.count, max(limit - written, 0))]) }
        guard !kept.isEmpty else { return }
        try writer?.write(interleaved: kept)
        written += kept.count
    }

    func finish() throws -> Int {
        try writer?.finish()
        return written
    }
}
