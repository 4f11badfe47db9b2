/// What a `dfkit live --jack` run measured, as the command prints it (text or JSON, snake_case).
public struct JackLiveReport: Encodable, Sendable {
    public struct Milliseconds: Encodable, Sendable {
        public let mean: Double
        public let p50: Double
        public let p90: Double
        public let p99: Double
        public let p999: Double
        public let max: Double
    }

    public struct Load: Encodable, Sendable {
        public let mean: Double
        public let max: Double
    }

    public let model: String
    public let server: String
    public let sampleRate: Int
    public let periodFrames: Int
    /// Input sample n leaves the output port at sample n + latencySamples.
    public let latencySamples: Int
    public let latencyMilliseconds: Double
    /// Whether the JACK server runs its clients' threads with real-time priority.
    public let realtime: Bool
    /// Whether the process's memory is locked in RAM (mlockall) while it runs.
    public let memoryLocked: Bool
    public let seconds: Double
    public let callbacks: Int
    public let xruns: Int
    /// The server's DSP load (`jack_cpu_load`, percent of the period), sampled every 100 ms.
    public let dspLoadPercent: Load
    /// Time inside the process callback, per callback.
    public let processingMs: Milliseconds
    /// Processing time per callback over the period's duration.
    public let callbackLoad: Load
    /// Callbacks that found the file thread behind (input) or the output ring full.
    public let underruns: Int
    public let overruns: Int
    /// NaN/±Inf input samples replaced by zero; frames the enhancer returned non-finite.
    public let nonFiniteInputSamples: Int
    public let enhancerFailures: Int
    /// Samples output as silence because the period changed during the run.
    public let lateSamples: Int
    public let inputFrames: Int?
    public let outputFrames: Int?
}
