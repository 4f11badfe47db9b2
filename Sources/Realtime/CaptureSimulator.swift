import DSP

/// Runs a capture scenario callback by callback: the hardware fills a buffer, the OS converts it
/// and delivers what its mode allows, the app checks the timestamps for gaps (concealing them
/// with zeros), frames the samples into 10 ms, runs the processor and is charged for it on a
/// virtual clock against the callback deadline.
///
/// Everything is allocated in `init`; a callback allocates nothing unless callback records or
/// output are being collected (or a route change builds the new converter, as the OS would).
public final class CaptureSimulator {
    public let configuration: SimulationConfiguration
    private var source: any CaptureSource
    private var processor: any FrameProcessor
    private let system: SystemConverter
    private let framer: Framer
    private var gapDetector: GapDetector
    private var clock = VirtualClock()
    private let hardwareBuffer: UnsafeMutableBufferPointer<Float>
    private let appBuffer: UnsafeMutableBufferPointer<Float>
    private let frameBackup: UnsafeMutableBufferPointer<Float>
    private let samplePeriod: Double

    // Faults in time order, route changes (applied at buffer boundaries) apart from the faults
    // that strike a callback; each cursor is the first fault not yet applied.
    private let scheduledRoutes: [(time: Double, rate: Int)]
    private var nextScheduledRoute = 0
    private let callbackFaults: [Fault]
    private var nextCallbackFault = 0
    private var callbacksToDrop = 0

    // The hardware timeline of the current route.
    private var routeStart: Double = 0
    private var routeCallbacks = 0
    private var sampleTime = 0
    /// For each route: the index of its first converted sample and when its first buffer began.
    private var routes: [(firstSample: Int, start: Double)] = [(0, 0)]

    /// Capture times of the samples given to the framer, as a ring of linear pieces: piece i says
    /// framed sample `pieceStarts[i]` finished being captured at `pieceTimes[i]` seconds.
    private let pieceStarts: UnsafeMutableBufferPointer<Int>
    private let pieceTimes: UnsafeMutableBufferPointer<Double>
    private var firstPiece = 0
    private var pieceCount = 0

    // Counters and distributions.
    private var callbackIndex = 0
    private var capturedSamples = 0
    private var convertedSamples = 0
    private var deliveredSamples = 0
    private var lostSamples = 0
    private var framedSamples = 0
    private var releasedSamples = 0
    private var outputSamples = 0
    private var framesThisCallback = 0
    private var droppedCallbacks = 0
    private var routeChanges = 0
    private var gaps = 0
    private var missingSamples = 0
    private var framesProcessed = 0
    private var framesPassedThrough = 0
    private var processingFailures = 0
    private var callbackSizes = CountHistogram()
    private var framesPerCallback = CountHistogram()
    private var latency = Summary()
    private var endToEnd = Summary()
    private var load = LoadDistribution()
    private var missCauses: [DeadlineMiss: Int] = [:]
    private var mostHeld = 0
    private var heldSampleSeconds: Double = 0
    private var framerSampleSeconds: Double = 0
    private var elapsed: Double = 0
    private var records: [CallbackRecord] = []
    private var output: [Float] = []

    /// - Parameter makeConverter: builds the OS converter for a hardware → app rate pair.
    public init(
        configuration: SimulationConfiguration, source: any CaptureSource, processor: any FrameProcessor,
        makeConverter: @escaping SampleRateConverterFactory = { try StreamingResampler(inputRate: $0, outputRate: $1) }
    ) throws {
        try configuration.validate()
        for rate in configuration.hardwareRates where !source.supports(sampleRate: rate) {
            throw RealtimeError.invalidSetting("the capture source cannot play at \(rate) Hz (hardware rate of this scenario)")
        }
        guard processor.latencySamples >= 0 else {
            throw RealtimeError.processorMismatch("negative latency of \(processor.latencySamples) samples")
        }
        self.configuration = configuration
        self.source = source
        self.processor = processor
        system = try SystemConverter(
            hardware: configuration.hardware, appRate: configuration.appRate, delivery: configuration.delivery,
            hardwareRates: Set(configuration.hardwareRates), makeConverter: makeConverter)
        framer = try Framer(sampleRate: configuration.appRate, chunkCapacity: system.maximumDeliveryCount)
        gapDetector = GapDetector(appRate: configuration.appRate)
        samplePeriod = 1 / Double(configuration.appRate)
        let faults = configuration.faults.sorted { $0.time < $1.time }
        scheduledRoutes = faults.compactMap { fault in
            guard case .routeChange(let time, let rate) = fault else { return nil }
            return (time, rate)
        }
        callbackFaults = faults.filter { if case .routeChange = $0 { false } else { true } }
        hardwareBuffer = .allocate(capacity: configuration.hardware.bufferFrames)
        hardwareBuffer.initialize(repeating: 0)
        appBuffer = .allocate(capacity: system.maximumDeliveryCount)
        appBuffer.initialize(repeating: 0)
        frameBackup = .allocate(capacity: framer.samplesPerFrame)
        frameBackup.initialize(repeating: 0)
        // Every piece holds at least one sample still in the framer or just delivered.
        let pieceCapacity = framer.samplesPerFrame + system.maximumDeliveryCount + 4
        pieceStarts = .allocate(capacity: pieceCapacity)
        pieceStarts.initialize(repeating: 0)
        pieceTimes = .allocate(capacity: pieceCapacity)
        pieceTimes.initialize(repeating: 0)
    }

    deinit {
        hardwareBuffer.deallocate()
        appBuffer.deallocate()
        frameBackup.deallocate()
        pieceStarts.deallocate()
        pieceTimes.deallocate()
    }

    /// Runs callbacks until the configured duration has elapsed or the source has ended.
    public func run() throws -> SimulationResult {
        try run(until: configuration.duration)
    }

    /// Runs the callbacks that fire by `time` seconds (and within the configured duration), then
    /// reports everything so far; a later call continues where this one stopped.
    public func run(until time: Double) throws -> SimulationResult {
        while try runCallback(firingBy: min(time, configuration.duration)) {}
        return SimulationResult(statistics: statistics, callbacks: records, output: output)
    }

    /// Simulates the next hardware callback if it fires by `end`; false when it does not.
    private func runCallback(firingBy end: Double) throws -> Bool {
        let bufferStart = routeStart + Double(routeCallbacks * system.hardware.bufferFrames) / Double(system.hardware.sampleRate)
        try applyRouteChanges(dueBy: bufferStart)
        let hardware = system.hardware
        let hostTime = routeStart + Double((routeCallbacks + 1) * hardware.bufferFrames) / Double(hardware.sampleRate)
        guard hostTime <= end + 1e-9 else { return false }
        guard source.read(into: hardwareBuffer, sampleRate: hardware.sampleRate) == hardware.bufferFrames else { return false }
        routeCallbacks += 1
        capturedSamples += hardware.bufferFrames

        let stall = collectFaults(dueBy: hostTime)
        clock.beginCallback(arrival: hostTime, deadline: hostTime + hardware.callbackPeriod)
        if stall > 0 { clock.chargeStall(stall) }

        convertedSamples += system.convert(UnsafeBufferPointer(hardwareBuffer))
        let delivered = system.deliver(into: appBuffer)
        let timestamp = CaptureTimestamp(sampleTime: sampleTime, hostTime: hostTime, hardware: hardware)
        let firstDelivered = deliveredSamples
        sampleTime += delivered
        deliveredSamples += delivered
        framesThisCallback = 0

        let dropped = callbacksToDrop > 0
        var missing = 0
        if dropped {
            callbacksToDrop -= 1
            droppedCallbacks += 1
            lostSamples += delivered
        } else {
            missing = gapDetector.missingSamples(before: timestamp, sampleCount: delivered)
            let captured = captureTime(ofConverted: firstDelivered)
            if missing > 0 {
                gaps += 1
                missingSamples += missing
                addPiece(startingAt: framedSamples, capturedAt: captured - Double(missing) * samplePeriod)
                framedSamples += missing
                framer.appendSilence(count: missing) { release($0, at: hostTime) }
            }
            if delivered > 0 {
                addPiece(startingAt: framedSamples, capturedAt: captured)
                framedSamples += delivered
                framer.append(UnsafeBufferPointer(rebasing: appBuffer[..<delivered])) { release($0, at: hostTime) }
            }
            callbackSizes.add(delivered)
            framesPerCallback.add(framesThisCallback)
        }

        let timing = clock.endCallback()
        account(timing, period: hardware.callbackPeriod)
        if configuration.recordsCallbacks {
            records.append(CallbackRecord(
                index: callbackIndex, hwRate: hardware.sampleRate, hwFrames: hardware.bufferFrames,
                appSamples: delivered, sampleTime: timestamp.sampleTime, hostTimeMs: hostTime * 1000,
                framesOut: framesThisCallback, dropped: dropped, missingSamples: missing,
                heldSamples: system.heldCount, bufferedSamples: framer.bufferedCount,
                startMs: timing.start * 1000, finishMs: timing.finish * 1000,
                processingMs: timing.processing * 1000, stallMs: timing.stall * 1000,
                cpuLoad: timing.load, deadlineMiss: timing.miss))
        }
        callbackIndex += 1
        return true
    }

    private func applyRouteChanges(dueBy bufferStart: Double) throws {
        while nextScheduledRoute < scheduledRoutes.count, scheduledRoutes[nextScheduledRoute].time <= bufferStart + 1e-9 {
            let rate = scheduledRoutes[nextScheduledRoute].rate
            nextScheduledRoute += 1
            guard rate != system.hardware.sampleRate else { continue }
            try system.reroute(to: rate)
            routes.append((firstSample: convertedSamples, start: bufferStart))
            routeStart = bufferStart
            routeCallbacks = 0
            sampleTime = 0
            routeChanges += 1
        }
    }

    /// Applies the drops and stalls due by `hostTime`; returns the stall to charge now.
    private func collectFaults(dueBy hostTime: Double) -> Double {
        var stall: Double = 0
        while nextCallbackFault < callbackFaults.count, callbackFaults[nextCallbackFault].time <= hostTime + 1e-9 {
            switch callbackFaults[nextCallbackFault] {
            case .droppedCallbacks(_, let count): callbacksToDrop += count
            case .stall(_, let duration): stall += duration
            case .routeChange: break
            }
            nextCallbackFault += 1
        }
        return stall
    }

    /// When converted sample `index` (counted over all routes) finished being captured.
    private func captureTime(ofConverted index: Int) -> Double {
        let route = routes.last { $0.firstSample <= index } ?? routes[0]
        return route.start + Double(index - route.firstSample + 1) / Double(configuration.appRate)
    }

    private func addPiece(startingAt framedIndex: Int, capturedAt time: Double) {
        let slot = (firstPiece + pieceCount) % pieceStarts.count
        pieceStarts[slot] = framedIndex
        pieceTimes[slot] = time
        if pieceCount < pieceStarts.count { pieceCount += 1 } else { firstPiece = (firstPiece + 1) % pieceStarts.count }
    }

    /// When framed sample `index` finished being captured; indices must not decrease between calls.
    private func captureTime(ofFramed index: Int) -> Double {
        while pieceCount > 1, pieceStarts[(firstPiece + 1) % pieceStarts.count] <= index {
            firstPiece = (firstPiece + 1) % pieceStarts.count
            pieceCount -= 1
        }
        return pieceTimes[firstPiece] + Double(index - pieceStarts[firstPiece]) / Double(configuration.appRate)
    }

    private func release(_ frame: UnsafeMutableBufferPointer<Float>, at releaseTime: Double) {
        let first = releasedSamples
        releasedSamples += frame.count
        let firstCaptureBegan = captureTime(ofFramed: first) - samplePeriod
        let lastCaptured = captureTime(ofFramed: first + frame.count - 1)
        let addedDelay = (Double(processor.latencySamples) + system.converterDelay) * samplePeriod
        // A frame cannot leave before its last sample exists; below zero is only rounding.
        latency.add(max(releaseTime - lastCaptured, 0) * 1000)
        endToEnd.add((releaseTime - firstCaptureBegan + addedDelay) * 1000)

        if configuration.noiseCancellationEnabled {
            _ = frameBackup.update(fromContentsOf: frame)
            let began = ContinuousClock.now
            let succeeded = processor.process(frame)
            let cost = processor.fixedCost ?? began.duration(to: .now)
            clock.chargeProcessing(Double(cost.components.seconds) + Double(cost.components.attoseconds) * 1e-18)
            if succeeded {
                framesProcessed += 1
            } else {
                _ = frame.update(fromContentsOf: frameBackup)
                processingFailures += 1
            }
        } else {
            framesPassedThrough += 1
        }
        if configuration.collectsOutput { output.append(contentsOf: frame) }
        outputSamples += frame.count
        framesThisCallback += 1
    }

    private func account(_ timing: CallbackTiming, period: Double) {
        load.add(timing.load)
        if let miss = timing.miss { missCauses[miss, default: 0] += 1 }
        mostHeld = max(mostHeld, system.heldCount)
        heldSampleSeconds += Double(system.heldCount) * period
        framerSampleSeconds += Double(framer.bufferedCount) * period
        elapsed += period
    }

    private var statistics: SimulationStatistics {
        let appRate = Double(configuration.appRate)
        let perSecond = elapsed > 0 ? 1000 / (elapsed * appRate) : 0
        return SimulationStatistics(
            hwRate: configuration.hardware.sampleRate, hwBufferFrames: configuration.hardware.bufferFrames,
            appRate: configuration.appRate, delivery: configuration.delivery.rawValue,
            callbackPeriodMs: configuration.hardware.callbackPeriodMilliseconds,
            samplesPerFrame: framer.samplesPerFrame,
            nominalAppSamplesPerCallback: Double(configuration.hardware.bufferFrames) * appRate
                / Double(configuration.hardware.sampleRate),
            callbackCount: callbackIndex, droppedCallbacks: droppedCallbacks, routeChanges: routeChanges,
            callbackSizes: callbackSizes, framesPerCallback: framesPerCallback,
            latencyMs: latency, endToEndMs: endToEnd,
            latencyComponentsMs: .init(
                hardwareBuffer: configuration.hardware.callbackPeriodMilliseconds,
                osRemainderMean: heldSampleSeconds * perSecond,
                osRemainderMax: Double(mostHeld) * 1000 / appRate,
                framing: Double(framer.samplesPerFrame) * 1000 / appRate,
                framerRemainderMean: framerSampleSeconds * perSecond,
                algorithmic: Double(processor.latencySamples) * 1000 / appRate,
                resampler: system.converterDelay * 1000 / appRate),
            deadlineMisses: missCauses.values.reduce(0, +),
            missCauses: Dictionary(uniqueKeysWithValues: DeadlineMiss.allCases.map { ($0.rawValue, missCauses[$0, default: 0]) }),
            cpuLoad: .init(mean: load.mean, p99: load.percentile99, max: load.maximum),
            gaps: gaps, missingSamples: missingSamples, lostSamples: lostSamples,
            framesProcessed: framesProcessed, framesPassedThrough: framesPassedThrough,
            processingFailures: processingFailures,
            capturedSamples: capturedSamples, convertedSamples: convertedSamples,
            deliveredSamples: deliveredSamples, outputSamples: outputSamples,
            heldSamples: system.heldCount, framerBufferedSamples: framer.bufferedCount)
    }
}
