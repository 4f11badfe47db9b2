import Enhancement
import Foundation
import LiveJack
import ModelCatalog
import Synchronization

/// `dfkit live --jack …`: a speech enhancer as a JACK client, measured while it runs.
struct LiveCommand: Command {
    static let name = "live"
    static let summary = "run an enhancer as a JACK client (ports in/out) and report xruns, DSP load and callback times"
    static var help: String { """
        USAGE: dfkit live --jack [--model NAME|DIR] [--input FILE] [--output FILE] [--seconds S]
                          [--client NAME] [--no-connect] [--any-period] [--json] [model options]

        Registers a JACK client with an input port 'in' and an output port 'out' on the server
        $JACK_DEFAULT_SERVER names (else the default one; it must be running, e.g.
        jackd -d dummy -r 48000 -p 256), and enhances every period inside the JACK process
        callback: at the server's rate (the model's own, or resampled to it and back), the period
        cut into the model's frames, with a fixed latency reported below. The callback allocates
        nothing, takes no lock and never waits; files are read and written on another thread
        through lock-free rings.

        With --input, FILE (first channel, at the server's rate) is played into the enhancer
        instead of the input port, and on to 'out'; the run ends when all of it has come out.
        --output writes the enhanced signal as a 32-bit float WAV aligned with the input, as
        'dfkit enhance --streaming' writes it (the latency removed; as long as the input).
        Without --input the run ends after --seconds or on Ctrl-C.

        At the end it prints the xruns JACK reported, the server's DSP load (jack_cpu_load,
        sampled every 100 ms), the time spent in each callback (mean, p50, p90, p99, p99.9, max) and
        that time over the period.

        OPTIONS:
          --jack           run as a JACK client (the only host so far; required)
          --model M        a model's name (default \(ModelCatalog.defaultName); `dfkit models`) or folder
          --input FILE     play FILE through the enhancer instead of the input port
          --output FILE    write the enhanced signal, aligned with the input
          --seconds S      stop after S seconds
          --client NAME    the JACK client name (default dfkit)
          --no-connect     leave the ports unconnected (default: to the first physical ports)
          --any-period     keep the output aligned when the server's period changes while
                           running (jack_bufsize): latency frame - 1 instead of the smaller
                           frame - gcd(period, frame) of the period at start
          --json           print one JSON object (keys include xruns, period_frames,
                           sample_rate, latency_samples, processing_ms, dsp_load_percent)
        \(EnhancerOptions.helpText)
          -h, --help       show this help
        """
    }

    let model: String
    let options: EnhancerOptions
    let configuration: JackLiveSession.Configuration
    let printsJSON: Bool

    init(arguments: inout ArgumentList) throws {
        guard arguments.flag("--jack") else {
            throw CommandLineError("--jack is required (JACK is the live host dfkit runs as)")
        }
        model = try arguments.value("--model") ?? ModelCatalog.defaultName
        var configuration = JackLiveSession.Configuration(inputPath: try arguments.value("--input"), outputPath: try arguments.value("--output"))
        if let seconds = try arguments.number("--seconds", as: Double.self) {
            guard seconds.isFinite, seconds > 0 else { throw CommandLineError("--seconds must be positive, got \(seconds)") }
            configuration.seconds = seconds
        }
        if let client = try arguments.value("--client") {
            guard !client.isEmpty, client.utf8.count <= 63 else { throw CommandLineError("--client must be 1 to 63 bytes") }
            configuration.clientName = client
        }
        configuration.connectsPhysicalPorts = !arguments.flag("--no-connect")
        configuration.acceptsAnyPeriod = arguments.flag("--any-period")
        printsJSON = arguments.flag("--json")
        options = try EnhancerOptions(parsing: &arguments)
        let leftovers = try arguments.positionals()
        guard leftovers.isEmpty else { throw CommandLineError("unexpected argument '\(leftovers[0])'") }
        if configuration.inputPath == nil && configuration.seconds == nil && printsJSON {
            throw CommandLineError("--json without --input needs --seconds (the report comes at the end of the run)")
        }
        self.configuration = configuration
    }

    func run() throws {
        let model = try ModelCatalog.model(self.model)
        let session = try JackLiveSession(model: model, options: options, configuration: configuration)
        signal(SIGINT, { _ in interruptRequested.store(true, ordering: .relaxed) })
        let report = try session.run { interruptRequested.load(ordering: .relaxed) }
        if printsJSON {
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(text(report))
        }
    }

    private func text(_ report: JackLiveReport) -> String {
        func f(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }
        let period = Double(report.periodFrames) * 1000 / Double(report.sampleRate)
        var lines = [
            "jack live: \(report.model) on server '\(report.server)' at \(report.sampleRate) Hz, period \(report.periodFrames) frames "
                + "(\(f(period)) ms), real-time threads \(report.realtime ? "yes" : "no"), memory locked \(report.memoryLocked ? "yes" : "no")",
            "  latency          \(report.latencySamples) samples (\(f(report.latencyMilliseconds)) ms)",
            "  callbacks        \(report.callbacks) in \(f(report.seconds)) s, xruns \(report.xruns)",
            "  DSP load %       mean \(f(report.dspLoadPercent.mean, 2))  max \(f(report.dspLoadPercent.max, 2))  (jack_cpu_load every 100 ms)",
            "  processing ms    mean \(f(report.processingMs.mean))  p50 \(f(report.processingMs.p50))  p90 \(f(report.processingMs.p90))  "
                + "p99 \(f(report.processingMs.p99))  p99.9 \(f(report.processingMs.p999))  max \(f(report.processingMs.max))  per callback",
            "  callback load    mean \(f(report.callbackLoad.mean, 4))  max \(f(report.callbackLoad.max, 4))  (processing / period)",
            "  underruns \(report.underruns), overruns \(report.overruns), non-finite input samples \(report.nonFiniteInputSamples), "
                + "enhancer failures \(report.enhancerFailures), late samples \(report.lateSamples)",
        ]
        if let input = report.inputFrames { lines.append("  input            \(input) frames") }
        if let output = report.outputFrames, let path = configuration.outputPath { lines.append("  output           \(output) frames → \(path)") }
        return lines.joined(separator: "\n")
    }
}

/// Set by the SIGINT handler; the run polls it.
private let interruptRequested = Atomic<Bool>(false)
