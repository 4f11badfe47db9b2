import Enhancement
import Live
import ModelCatalog

/// One instance of a plugin as a host sees it: ports connected to the host's memory, a
/// `LiveEnhancer` per channel at the host's rate, and `run` over blocks of any size.
///
/// Everything is built in `init` (the host's `instantiate`); `run` allocates nothing, takes no
/// lock, never waits and cannot fail: unconnected (NULL) audio inputs read as silence,
/// unconnected outputs are computed and dropped, so that time goes on the same either way.
final class PluginInstance {
    let kind: PluginKind
    let sampleRate: Int
    private let model: any EnhancerModel
    private let modelFolder: String
    private var channels: [LiveEnhancer]
    /// The post-filter β the channels were built with.
    private var builtPostFilterBeta: Float = 0

    private let inputs: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>?>
    private let outputs: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>?>
    private var attenuationLimitPort: UnsafeMutablePointer<Float>?
    private var postFilterBetaPort: UnsafeMutablePointer<Float>?
    private var enablePort: UnsafeMutablePointer<Float>?
    private var latencyPort: UnsafeMutablePointer<Float>?
    /// Each channel's input for one chunk (all are read before any output is written, since a
    /// host may hand the same memory to an input and an output), and where unconnected outputs go.
    private let chunkInputs: [UnsafeMutableBufferPointer<Float>]
    private let sink: UnsafeMutableBufferPointer<Float>

    /// The post-filter β range the port offers (upstream enables it with 0.02).
    static let postFilterBetaRange: ClosedRange<Float> = 0...0.5

    /// - Throws: `EnhancerError` naming the model that is missing or the rate that cannot be served.
    init(kind: PluginKind, sampleRate: Double, pluginPath: String) throws {
        guard sampleRate.isFinite, sampleRate == sampleRate.rounded(), sampleRate >= 1, sampleRate <= 1e7 else {
            throw EnhancerError.unsupported("\(sampleRate) Hz: the sample rate must be a whole number of Hz")
        }
        self.kind = kind
        self.sampleRate = Int(sampleRate)
        let roots = ModelCatalog.searchRoots(forPluginAt: pluginPath)
        (model, modelFolder) = try SharedModels.acquire(kind.modelName, roots: roots)
        do {
            channels = try Self.makeChannels(kind: kind, model: model, sampleRate: self.sampleRate, postFilterBeta: 0)
        } catch {
            SharedModels.release(folder: modelFolder)
            throw error
        }
        inputs = .allocate(capacity: kind.channelCount)
        inputs.initialize(repeating: nil)
        outputs = .allocate(capacity: kind.channelCount)
        outputs.initialize(repeating: nil)
        let frameSize = channels[0].frameSize
        func buffer() -> UnsafeMutableBufferPointer<Float> {
            let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: frameSize)
            buffer.initialize(repeating: 0)
            return buffer
        }
        chunkInputs = (0..<kind.channelCount).map { _ in buffer() }
        sink = buffer()
    }

    deinit {
        inputs.deallocate()
        outputs.deallocate()
        for buffer in chunkInputs { buffer.deallocate() }
        sink.deallocate()
        SharedModels.release(folder: modelFolder)
    }

    private static func makeChannels(kind: PluginKind, model: any EnhancerModel, sampleRate: Int, postFilterBeta: Float) throws -> [LiveEnhancer] {
        let options = kind.hasPostFilter && postFilterBeta > 0 ? EnhancerOptions(["pf-beta": .number(Double(postFilterBeta))]) : EnhancerOptions()
        return try (0..<kind.channelCount).map { _ in
            try LiveEnhancer(enhancer: model.makeStreamingEnhancer(options: options), sampleRate: sampleRate)
        }
    }

    /// Input sample n comes out at output sample n + latency (the same for every channel).
    var latency: Int { channels[0].latency }

    func connect(_ role: PortRole, channel: Int, to data: UnsafeMutablePointer<Float>?) {
        switch role {
        case .audioInput: if channel >= 0 && channel < inputs.count { inputs[channel] = data }
        case .audioOutput: if channel >= 0 && channel < outputs.count { outputs[channel] = data }
        case .attenuationLimit: attenuationLimitPort = data
        case .postFilterBeta: postFilterBetaPort = data
        case .enable: enablePort = data
        case .latency:
            latencyPort = data
            publishLatency()
        }
    }

    /// The host's `activate`: back to silence, with the post-filter β of its port (the one
    /// setting that needs new enhancers, so it takes effect here and not in `run`).
    func activate() {
        if kind.hasPostFilter, let port = postFilterBetaPort {
            let beta = port.pointee.isFinite ? min(max(port.pointee, Self.postFilterBetaRange.lowerBound), Self.postFilterBetaRange.upperBound) : 0
            if beta != builtPostFilterBeta,
               let rebuilt = try? Self.makeChannels(kind: kind, model: model, sampleRate: sampleRate, postFilterBeta: beta) {
                channels = rebuilt
                builtPostFilterBeta = beta
            }
        }
        for channel in channels { channel.reset() }
        publishLatency()
    }

    func run(_ count: Int) {
        publishLatency()
        guard count > 0 else { return }
        // A NaN from the host switches nothing off.
        let enabled = enablePort.map { !($0.pointee <= 0) } ?? true
        let attenuationLimit = attenuationLimitPort?.pointee ?? 100
        for channel in channels {
            channel.isEnabled = enabled
            channel.attenuationLimitDecibels = attenuationLimit
        }
        let frameSize = channels[0].frameSize
        var offset = 0
        while offset < count {
            let chunk = min(frameSize, count - offset)
            for index in 0..<channels.count {
                let destination = UnsafeMutableBufferPointer(rebasing: chunkInputs[index][0..<chunk])
                if let input = inputs[index] {
                    destination.baseAddress!.update(from: input + offset, count: chunk)
                } else {
                    destination.update(repeating: 0)
                }
            }
            for index in 0..<channels.count {
                let output = outputs[index].map { UnsafeMutableBufferPointer(start: $0 + offset, count: chunk) }
                    ?? UnsafeMutableBufferPointer(rebasing: sink[0..<chunk])
                channels[index].process(UnsafeBufferPointer(rebasing: chunkInputs[index][0..<chunk]), into: output)
            }
            offset += chunk
        }
    }

    private func publishLatency() {
        latencyPort?.pointee = Float(latency)
    }
}
