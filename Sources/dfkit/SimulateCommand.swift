import DSP
import Enhancement
import Foundation
import ModelCatalog
import Realtime

/// `dfkit simulate`: what a phone's capture path does to a 10 ms noise canceller.
struct SimulateCommand: Command {
    static let name = "simulate"
    static let summary = "simulate a device's capture callbacks feeding a 10 ms noise canceller"
    static let help = """
        USAGE: dfkit simulate --hw-rate R --hw-buffer N --app-rate R --delivery pow2|exact [options]
               dfkit simulate --device NAME [--hw-buffer N] [options]
               dfkit simulate --sweep --app-rate R [--hw-rate R] [options]
               dfkit simulate --sweep --device NAME[,NAME…]|all [options]
               dfkit simulate --list-devices

        Simulates the hardware filling power-of-two buffers, the OS converting them to the app's
        rate (keeping the fractional remainder) and delivering either power-of-two chunks (pow2,
        the legacy iOS 5 behaviour) or every whole sample (exact, iOS 6 on), the app cutting 10 ms
        frames (rate/100 samples) out of a preallocated ring and a processor handling each frame
        on a virtual clock charged against the callback deadline. Prints callback sizes, frames
        per callback, buffering and end-to-end latency, deadline misses, CPU load and gaps.

        A device profile (--device) sets the hardware rate, buffer, delivery and app rate of one
        platform's capture path (--list-devices prints them with their sources); --hw-rate,
        --hw-buffer (within what the profile allows), --delivery and --app-rate override it.

        OPTIONS:
          --device NAME        ios5, ios6, aaudio, aaudio-legacy, webaudio, pipewire, jack, wasapi,
                               hfp-wideband or hfp-narrowband (with --sweep: several, comma-
                               separated, or all: each at every buffer size it allows)
          --list-devices       print the device profiles, their numbers and sources
          --hw-rate R          hardware sample rate in Hz (e.g. 44100, 48000, 16000 for a headset)
          --hw-buffer N        hardware buffer in frames: 256, 512, 1024, 2048 or 4096 (with
                               --device: what the profile allows, e.g. 32…2048 for pipewire)
          --app-rate R         the rate the app asks for: 8000, 16000, 24000, 32000, 44100,
                               48000, 88200 or 96000 Hz
          --delivery MODE      pow2 or exact
          --seconds S          simulated seconds (default 10)
          --input FILE         microphone signal from an audio file (first channel, resampled to
                               each hardware rate); default: a 440 Hz tone in white noise
          --output FILE        write the forwarded app-rate output as a 32-bit float WAV
          --processor P        passthrough (default), cost:MS (passes frames through, charged MS
                               milliseconds each), or a model's name as `dfkit models` lists
                               it (at the app rate through the real-time chain: resampled to
                               the model's rate, re-blocked into its hops; each frame charged
                               its measured time; run with OPENBLAS_NUM_THREADS=1)
          --model DIR          the folder of the model --processor names (default: found as
                               `dfkit models` lists it)
          --disable-nc         noise cancelling off: frames pass through unprocessed, uncharged
          --fault F            inject a fault (repeatable; times in ms from the start):
                                 drop:T[:COUNT]    lose COUNT callbacks (default 1) from time T
                                 stall:T:MS        hold up the callback at time T for MS
                                 route:T:RATE      switch the hardware to RATE Hz at time T
          --json               print {"callbacks": [...], "stats": {...}} instead of text
          --plot FILE.svg      draw a timeline of callbacks, frames, processing and misses
          --sweep              run every buffer size × hardware rate (44100, 48000, 16000 unless
                               --hw-rate is given) × delivery mode and print one table; with
                               --device, every buffer size of each profile
          -h, --help           show this help
        """

    private enum ProcessorChoice {
        case passThrough
        case cost(milliseconds: Double)
        case model(String)
    }

    private let devices: [DeviceProfile]
    private let listsDevices: Bool
    private let hardwareRate: Int?
    private let bufferFrames: Int?
    private let appRate: Int?
    private let delivery: DeliveryMode?
    private let seconds: Double
    private let inputPath: String?
    private let outputPath: String?
    private let processor: ProcessorChoice
    private let modelDirectory: String?
    private let noiseCancellationEnabled: Bool
    private let faults: [Fault]
    private let printsJSON: Bool
    private let plotPath: String?
    private let sweeps: Bool

    init(arguments: inout ArgumentList) throws {
        sweeps = arguments.flag("--sweep")
        listsDevices = arguments.flag("--list-devices")
        printsJSON = arguments.flag("--json")
        if let names = try arguments.value("--device") {
            do {
                devices = try names == "all" ? DeviceProfile.all : names.split(separator: ",").map { try DeviceProfile.named(String($0)) }
            } catch {
                throw CommandLineError("--device: \(error)")
            }
        } else {
            devices = []
        }
        noiseCancellationEnabled = !arguments.flag("--disable-nc")
        hardwareRate = try arguments.number("--hw-rate")
        bufferFrames = try arguments.number("--hw-buffer")
        appRate = try arguments.number("--app-rate")
        guard appRate != nil || !devices.isEmpty || listsDevices else {
            throw CommandLineError("--app-rate is required (or a --device profile)")
        }
        if let mode = try arguments.value("--delivery") {
            guard let parsed = DeliveryMode(rawValue: mode) else {
                throw CommandLineError("--delivery must be pow2 or exact, got '\(mode)'")
            }
            delivery = parsed
        } else {
            delivery = nil
        }
        seconds = try arguments.number("--seconds") ?? 10
        guard seconds.isFinite, seconds > 0 else { throw CommandLineError("--seconds must be positive, got \(seconds)") }
        inputPath = try arguments.value("--input")
        outputPath = try arguments.value("--output")
        plotPath = try arguments.value("--plot")
        processor = try Self.parseProcessor(arguments.value("--processor") ?? "passthrough")
        modelDirectory = try arguments.value("--model")
        faults = try arguments.values("--fault").map(Self.parseFault)
        let leftovers = try arguments.positionals()
        guard leftovers.isEmpty else { throw CommandLineError("unexpected argument '\(leftovers[0])'") }

        if listsDevices {
            guard !sweeps, devices.isEmpty else { throw CommandLineError("--list-devices prints the profiles; give it alone") }
        } else if sweeps {
            guard bufferFrames == nil, delivery == nil else {
                throw CommandLineError("--sweep runs every --hw-buffer and --delivery; do not give them")
            }
            guard outputPath == nil, plotPath == nil, !printsJSON else {
                throw CommandLineError("--sweep prints one table; --output, --plot and --json need a single configuration")
            }
        } else if devices.count > 1 {
            throw CommandLineError("--device takes one profile without --sweep, got \(devices.count)")
        } else if devices.isEmpty {
            guard hardwareRate != nil, bufferFrames != nil, delivery != nil else {
                throw CommandLineError("--hw-rate, --hw-buffer and --delivery are required (or use --device or --sweep)")
            }
        }
    }

    private static func parseProcessor(_ text: String) throws -> ProcessorChoice {
        if text == "passthrough" { return .passThrough }
        guard text.hasPrefix("cost:") else { return .model(text) }
        guard let milliseconds = Double(text.dropFirst(5)), milliseconds.isFinite, milliseconds >= 0 else {
            throw CommandLineError("--processor cost:MS needs MS ≥ 0 milliseconds, got '\(text)'")
        }
        return .cost(milliseconds: milliseconds)
    }

    private static func parseFault(_ text: String) throws -> Fault {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let numbers = parts.dropFirst().map { Double($0) }
        guard numbers.allSatisfy({ $0 != nil }) else { throw CommandLineError("--fault '\(text)': the fields after the kind must be numbers") }
        let values = numbers.compactMap { $0 }
        switch (parts[0], values.count) {
        case ("drop", 1), ("drop", 2):
            let count = values.count == 2 ? values[1] : 1
            guard count >= 1, count <= 1_000_000, count == count.rounded() else {
                throw CommandLineError("--fault '\(text)': COUNT must be a whole number from 1 to 1000000")
            }
            return .droppedCallbacks(at: values[0] / 1000, count: Int(count))
        case ("stall", 2):
            return .stall(at: values[0] / 1000, duration: values[1] / 1000)
        case ("route", 2):
            guard abs(values[1]) <= 1e9, values[1] == values[1].rounded() else {
                throw CommandLineError("--fault '\(text)': RATE must be a whole number of Hz")
            }
            return .routeChange(at: values[0] / 1000, sampleRate: Int(values[1]))
        default:
            throw CommandLineError("--fault '\(text)': expected drop:T[:COUNT], stall:T:MS or route:T:RATE")
        }
    }

    func run() throws {
        if listsDevices {
            print(deviceTable())
            return
        }
        var model: (any EnhancerModel)?
        if case .model(let name) = processor {
            let loaded = try ModelCatalog.model(modelDirectory ?? name)
            guard loaded.name == name else {
                throw CommandLineError("--model \(modelDirectory ?? name) holds \(loaded.name), not the \(name) --processor names")
            }
            model = loaded
        }
        if sweeps {
            print(try sweepTable(model: model))
            return
        }
        let device = devices.first
        let hardware: HardwareFormat
        if let device {
            hardware = try device.hardware(bufferFrames: bufferFrames, sampleRate: hardwareRate)
        } else if let hardwareRate, let bufferFrames {
            hardware = try HardwareFormat(sampleRate: hardwareRate, bufferFrames: bufferFrames)
        } else {
            return
        }
        guard let delivery = delivery ?? device?.delivery, let appRate = appRate ?? device?.appRate else { return }
        let configuration = SimulationConfiguration(
            hardware: hardware, appRate: appRate,
            delivery: delivery, duration: seconds, faults: faults, noiseCancellationEnabled: noiseCancellationEnabled,
            recordsCallbacks: printsJSON || plotPath != nil, collectsOutput: outputPath != nil)
        let result = try simulate(configuration, model: model)
        if let outputPath {
            try AudioFileWriter.write(AudioSignal(sampleRate: appRate, channels: [result.output]), to: outputPath,
                                      encoding: .float32)
        }
        if let plotPath {
            let svg = TimelinePlot(callbacks: result.callbacks, statistics: result.statistics, faults: faults).svg()
            try Data(svg.utf8).write(to: URL(fileURLWithPath: plotPath))
        }
        print(printsJSON ? try json(result, device: device) : (device.map { "device \($0.name): \($0.summary)\n" } ?? "") + text(result.statistics))
        if !printsJSON, let model {
            let components = try EnhancerFrameProcessor(enhancer: model.makeStreamingEnhancer(options: EnhancerOptions()),
                                                        sampleRate: configuration.appRate).latencyComponents
            print(String(format: "  %@ latency ms       model %.3f + re-blocking 10 ms frames into %d-sample hops %.3f + resampling %.3f",
                         model.name, components.model, model.hopSize, components.reBlocking, components.resampling))
        }
    }

    private func simulate(_ configuration: SimulationConfiguration, model: (any EnhancerModel)?) throws -> SimulationResult {
        let source: any CaptureSource
        if let inputPath {
            let signal = try AudioFileReader.read(path: inputPath)
            guard let first = signal.channels.first, !first.isEmpty else {
                throw CommandLineError("--input \(inputPath) has no samples")
            }
            source = try RecordedSignal(samples: first, sampleRate: signal.sampleRate,
                                        playableAt: configuration.hardwareRates)
        } else {
            source = TestSignal()
        }
        let frameProcessor: any FrameProcessor
        switch processor {
        case .passThrough:
            frameProcessor = PassThroughProcessor()
        case .cost(let milliseconds):
            frameProcessor = try SyntheticCostProcessor(costPerFrame: .nanoseconds(Int64((milliseconds * 1e6).rounded())))
        case .model(let name):
            guard let model else { throw CommandLineError("--processor \(name) needs the model (--model DIR)") }
            frameProcessor = try EnhancerFrameProcessor(enhancer: model.makeStreamingEnhancer(options: EnhancerOptions()),
                                                        sampleRate: configuration.appRate)
        }
        return try CaptureSimulator(configuration: configuration, source: source, processor: frameProcessor).run()
    }

    private func json(_ result: SimulationResult, device: DeviceProfile?) throws -> String {
        struct Report: Encodable {
            let device: String?
            let callbacks: [CallbackRecord]
            let stats: SimulationStatistics
        }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(Report(device: device?.name, callbacks: result.callbacks, stats: result.statistics)), as: UTF8.self)
    }

    private func text(_ statistics: SimulationStatistics) -> String {
        func ms(_ value: Double) -> String { String(format: "%.3f", value) }
        func histogram(_ histogram: CountHistogram) -> String {
            histogram.bins.map { "\($0.value)×\($0.count)" }.joined(separator: "  ")
        }
        let components = statistics.latencyComponentsMs
        let causes = statistics.missCauses.filter { $0.value > 0 }.sorted { $0.key < $1.key }
            .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return """
            hardware \(statistics.hwBufferFrames) frames @ \(statistics.hwRate) Hz → app \(statistics.appRate) Hz, \
            \(statistics.delivery) delivery
              callback period        \(ms(statistics.callbackPeriodMs)) ms, \
            \(String(format: "%.2f", statistics.nominalAppSamplesPerCallback)) app samples per callback on average
              samples per frame      \(statistics.samplesPerFrame)
              callbacks              \(statistics.callbackCount) (\(statistics.droppedCallbacks) dropped, \
            \(statistics.routeChanges) route changes)
              callback sizes         \(histogram(statistics.callbackSizes))
              frames per callback    \(histogram(statistics.framesPerCallback))
              buffering latency ms   min \(ms(statistics.latencyMs.min))  mean \(ms(statistics.latencyMs.mean))  \
            max \(ms(statistics.latencyMs.max))
              end-to-end latency ms  min \(ms(statistics.endToEndMs.min))  mean \(ms(statistics.endToEndMs.mean))  \
            max \(ms(statistics.endToEndMs.max))
                components: hardware buffer \(ms(components.hardwareBuffer)) + OS remainder (mean \(ms(components.osRemainderMean)), \
            max \(ms(components.osRemainderMax))) + framing \(ms(components.framing)) (+ mean partial frame \
            \(ms(components.framerRemainderMean))) + algorithmic \(ms(components.algorithmic)) + resampler \
            \(ms(components.resampler))
              deadline misses        \(statistics.deadlineMisses)\(causes.isEmpty ? "" : " (\(causes))")
              CPU load per callback  mean \(String(format: "%.4f", statistics.cpuLoad.mean))  \
            p99 \(String(format: "%.4f", statistics.cpuLoad.p99))  max \(String(format: "%.4f", statistics.cpuLoad.max))
              gaps                   \(statistics.gaps) (\(statistics.missingSamples) samples missing, concealed with \
            zeros; \(statistics.lostSamples) lost)
              frames                 \(statistics.framesProcessed) processed, \(statistics.framesPassedThrough) \
            passed through, \(statistics.processingFailures) failed
              samples                \(statistics.capturedSamples) captured, \(statistics.deliveredSamples) delivered, \
            \(statistics.outputSamples) out, \(statistics.heldSamples + statistics.framerBufferedSamples) in flight
            """
    }

    /// The scenarios a sweep runs: each profile at every buffer size it allows, or every phone
    /// buffer × hardware rate × delivery mode.
    private func sweepConfigurations() throws -> [(device: String?, configuration: SimulationConfiguration)] {
        var scenarios: [(String?, SimulationConfiguration)] = []
        for device in devices {
            for frames in device.bufferSizes.sweepSizes(including: device.bufferFrames) {
                scenarios.append((device.name, SimulationConfiguration(
                    hardware: try device.hardware(bufferFrames: frames, sampleRate: hardwareRate), appRate: appRate ?? device.appRate,
                    delivery: device.delivery, duration: seconds, faults: faults, noiseCancellationEnabled: noiseCancellationEnabled)))
            }
        }
        guard devices.isEmpty, let appRate else { return scenarios }
        for rate in hardwareRate.map({ [$0] }) ?? [44_100, 48_000, 16_000] {
            for frames in HardwareFormat.supportedBufferSizes {
                for mode in DeliveryMode.allCases {
                    scenarios.append((nil, SimulationConfiguration(
                        hardware: try HardwareFormat(sampleRate: rate, bufferFrames: frames), appRate: appRate,
                        delivery: mode, duration: seconds, faults: faults, noiseCancellationEnabled: noiseCancellationEnabled)))
                }
            }
        }
        return scenarios
    }

    private func sweepTable(model: (any EnhancerModel)?) throws -> String {
        var rows: [[String]] = [(devices.isEmpty ? [] : ["device"]) + [
            "hw rate", "buffer", "delivery", "period ms", "callback sizes", "frames/cb", "latency ms mean/max",
            "end-to-end ms mean/max", "misses", "load p99/max",
        ]]
        for (device, configuration) in try sweepConfigurations() {
                    let statistics = try simulate(configuration, model: model).statistics
                    let sizes = statistics.callbackSizes.bins.map { String($0.value) }
                    rows.append((device.map { [$0] } ?? []) + [
                        String(configuration.hardware.sampleRate), String(configuration.hardware.bufferFrames),
                        configuration.delivery.rawValue, String(format: "%.2f", statistics.callbackPeriodMs),
                        sizes.count > 4 ? sizes.prefix(3).joined(separator: ",") + ",…" : sizes.joined(separator: ","),
                        statistics.framesPerCallback.bins.map { String($0.value) }.joined(separator: ","),
                        String(format: "%.2f / %.2f", statistics.latencyMs.mean, statistics.latencyMs.max),
                        String(format: "%.2f / %.2f", statistics.endToEndMs.mean, statistics.endToEndMs.max),
                        String(statistics.deadlineMisses),
                        String(format: "%.3f / %.3f", statistics.cpuLoad.p99, statistics.cpuLoad.max),
                    ])
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// The profiles, one line each with their numbers, then their sources.
    private func deviceTable() -> String {
        var lines = ["device          hw rate  buffer  allowed buffers                      delivery  app rate  summary"]
        for device in DeviceProfile.all {
            lines.append([
                device.name.padding(toLength: 14, withPad: " ", startingAt: 0), String(device.hardwareRate).padding(toLength: 7, withPad: " ", startingAt: 0),
                String(device.bufferFrames).padding(toLength: 6, withPad: " ", startingAt: 0),
                device.bufferSizes.description.padding(toLength: 35, withPad: " ", startingAt: 0),
                device.delivery.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0), String(device.appRate).padding(toLength: 8, withPad: " ", startingAt: 0),
                device.summary,
            ].joined(separator: "  "))
        }
        lines.append("")
        lines += DeviceProfile.all.map { "\($0.name): \($0.source)" }
        return lines.joined(separator: "\n")
    }
}
