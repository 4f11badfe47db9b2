/// The numbers a researcher reads off one capture scenario. Times in milliseconds.
public struct SimulationStatistics: Encodable, Hashable, Sendable {
    /// Where a frame's end-to-end latency comes from.
    public struct LatencyComponents: Encodable, Hashable, Sendable {
        /// One hardware buffer: how long its first sample waits for the callback.
        public var hardwareBuffer: Double
        /// Mean wait of a sample held back by the OS (time-averaged held samples / app rate).
        public var osRemainderMean: Double
        /// Longest wait of the OS remainder (most held samples / app rate).
        public var osRemainderMax: Double
        /// One 10 ms frame: how long its first sample waits for the last.
        public var framing: Double
        /// Mean wait in the framer beyond that (time-averaged partial frame / app rate).
        public var framerRemainderMean: Double
        /// The processor's latency (DFN3: 1440 samples at 48 kHz = 30 ms, plus its resampling).
        public var algorithmic: Double
        /// The OS converter's group delay.
        public var resampler: Double
    }

    /// CPU load per callback: processing and stall time over the callback period.
    public struct Load: Encodable, Hashable, Sendable {
        public var mean: Double
        public var p99: Double
        public var max: Double
    }

    public var hwRate: Int
    public var hwBufferFrames: Int
    public var appRate: Int
    public var delivery: String
    public var callbackPeriodMs: Double
    public var samplesPerFrame: Int
    public var nominalAppSamplesPerCallback: Double
    public var callbackCount: Int
    public var droppedCallbacks: Int
    public var routeChanges: Int
    public var callbackSizes: CountHistogram
    public var framesPerCallback: CountHistogram
    /// Buffering latency per frame: from the capture of its last sample to its release.
    public var latencyMs: Summary
    /// Per frame: from the capture of its first sample to its release, plus algorithmic and
    /// resampler delay.
    public var endToEndMs: Summary
    public var latencyComponentsMs: LatencyComponents
    public var deadlineMisses: Int
    public var missCauses: [String: Int]
    public var cpuLoad: Load
    /// Gaps detected from the timestamps and the samples they were missing (concealed with zeros).
    public var gaps: Int
    public var missingSamples: Int
    /// What the injected faults actually removed (the simulator's ground truth).
    public var lostSamples: Int
    public var framesProcessed: Int
    public var framesPassedThrough: Int
    public var processingFailures: Int
    /// Sample accounting: hardware frames captured, app samples converted / delivered,
    /// output samples forwarded, and what is still in flight.
    public var capturedSamples: Int
    public var convertedSamples: Int
    public var deliveredSamples: Int
    public var outputSamples: Int
    public var heldSamples: Int
    public var framerBufferedSamples: Int
}
