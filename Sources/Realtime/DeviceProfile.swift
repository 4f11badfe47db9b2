/// A platform's capture path as the simulator plays it: the hardware's rate and buffer (callback)
/// size, what the OS does between them and the app (converting to the app's rate, and handing out
/// power-of-two chunks or every whole sample), and the app's rate. Each number has its source in
/// `source`; the README's table lists them.
public struct DeviceProfile: Sendable, Hashable {
    /// The name `dfkit simulate --device` takes.
    public let name: String
    public let summary: String
    public let hardwareRate: Int
    /// The buffer the path uses unless told otherwise.
    public let bufferFrames: Int
    public let bufferSizes: BufferSizeRule
    public let delivery: DeliveryMode
    /// The rate the app asks for (the OS converts when it differs from the hardware's).
    public let appRate: Int
    /// Where the numbers come from.
    public let source: String

    /// The profile's hardware with `bufferFrames` (default: the profile's own), `sampleRate`
    /// (default: the profile's own).
    public func hardware(bufferFrames frames: Int? = nil, sampleRate rate: Int? = nil) throws(RealtimeError) -> HardwareFormat {
        try HardwareFormat(sampleRate: rate ?? hardwareRate, bufferFrames: frames ?? bufferFrames, allowedBy: bufferSizes)
    }

    public static func named(_ name: String) throws(RealtimeError) -> DeviceProfile {
        guard let profile = all.first(where: { $0.name == name }) else { throw .unknownDevice(name) }
        return profile
    }

    public static let all: [DeviceProfile] = [
        DeviceProfile(
            name: "ios5", summary: "iOS 5 and before: power-of-two delivery", hardwareRate: 44_100, bufferFrames: 1_024,
            bufferSizes: HardwareFormat.phoneBuffers, delivery: .pow2, appRate: 16_000,
            source: "Viber's iOS audio article and talk (T_HW = N·256/rate; 256, 256, 512, 256… chunks at 44.1 → 16 kHz); "
                + "AVAudioSession.setPreferredIOBufferDuration: 256 to 4096 frames at 44.1 kHz"),
        DeviceProfile(
            name: "ios6", summary: "iOS 6 and later: every whole sample", hardwareRate: 44_100, bufferFrames: 1_024,
            bufferSizes: HardwareFormat.phoneBuffers, delivery: .exact, appRate: 16_000,
            source: "Viber's iOS audio article (371/372 samples per 1024-frame callback at 44.1 → 16 kHz); Apple: with "
                + "sample-rate conversion the frame count varies from callback to callback"),
        DeviceProfile(
            name: "aaudio", summary: "Android AAudio MMAP stream: one burst per callback", hardwareRate: 48_000, bufferFrames: 192,
            bufferSizes: .anyCount(16...4_096), delivery: .exact, appRate: 48_000,
            source: "google/oboe #1053 (an MMAP stream's callback is framesPerBurst); #665 and "
                + "googlearchive/android-audio-high-performance #70 (192-frame bursts at 48 kHz; the burst is per device)"),
        DeviceProfile(
            name: "aaudio-legacy", summary: "Android legacy path resampling 48 → 44.1 kHz: callback sizes vary",
            hardwareRate: 48_000, bufferFrames: 192, bufferSizes: .anyCount(16...4_096), delivery: .exact, appRate: 44_100,
            source: "google/oboe #665 (with resampling inside AAudio the callback size can vary) and #1053 (most likely "
                + "for legacy streams that convert the rate); 192-frame bursts as above"),
        DeviceProfile(
            name: "webaudio", summary: "WebAudio AudioWorklet: one 128-frame render quantum per process()", hardwareRate: 48_000,
            bufferFrames: 128, bufferSizes: .only(128), delivery: .exact, appRate: 48_000,
            source: "Web Audio API: the render quantum is 128 sample-frames (MDN AudioWorkletProcessor.process); 48 kHz "
                + "is a common context rate"),
        DeviceProfile(
            name: "pipewire", summary: "PipeWire graph: a power-of-two quantum per cycle", hardwareRate: 48_000, bufferFrames: 1_024,
            bufferSizes: .powersOfTwo(32...2_048), delivery: .exact, appRate: 48_000,
            source: "pipewire.conf defaults: default.clock.rate 48000, default.clock.quantum 1024, min-quantum 32, "
                + "max-quantum 2048, clock.power-of-two-quantum true"),
        DeviceProfile(
            name: "jack", summary: "JACK: the same period every cycle, any size", hardwareRate: 48_000, bufferFrames: 256,
            bufferSizes: .anyCount(16...8_192), delivery: .exact, appRate: 48_000,
            source: "jackd -p FRAMES sets the period (jackd(1)); the dummy driver runs 256, 480 and 1024 here "
                + "(the JACK client tests)"),
        DeviceProfile(
            name: "wasapi", summary: "Windows WASAPI shared mode: the engine's 10 ms period", hardwareRate: 48_000, bufferFrames: 480,
            bufferSizes: .anyCount(16...4_800), delivery: .exact, appRate: 48_000,
            source: "learn.microsoft.com Low Latency Audio (before Windows 10 the engine buffer was always ~10 ms); "
                + "IAudioClient3::GetSharedModeEnginePeriod (default period 448 frames ≈ 10.16 ms at 44.1 kHz)"),
        DeviceProfile(
            name: "hfp-wideband", summary: "Bluetooth HFP wideband (mSBC) headset on iOS 6+", hardwareRate: 16_000, bufferFrames: 256,
            bufferSizes: .powersOfTwo(256...1_024), delivery: .exact, appRate: 16_000,
            source: "Viber's iOS talk: Bluetooth route at 16000 Hz, T_HW ∈ {16, 32 ms} = N·256/rate; HFP 1.6 mSBC "
                + "wideband speech is 16 kHz"),
        DeviceProfile(
            name: "hfp-narrowband", summary: "Bluetooth HFP narrowband (CVSD) headset on iOS 6+, converted to 16 kHz",
            hardwareRate: 8_000, bufferFrames: 256, bufferSizes: .powersOfTwo(256...1_024), delivery: .exact, appRate: 16_000,
            source: "HFP CVSD narrowband speech is 8 kHz; the buffer follows the talk's T_HW = N·256/rate rule "
                + "(no measurement at 8 kHz: 256 frames = 32 ms is that rule's smallest buffer)"),
    ]
}
