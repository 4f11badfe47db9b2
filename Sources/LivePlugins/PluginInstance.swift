import Enhancement
import Foundation
import Live
import ModelCatalog

/// One instance of a plugin as a host sees it: ports connected to the host's memory, a
/// `LiveEnhancer` per channel at the host's rate, and `run` over blocks of any size.
///
/// Everything is built in `init` (the host's `instantiate`); `run` allocates nothing, takes no
/// lock, never waits and cannot fail: unconnected (NULL) audio inputs read as silence,
/// unconnected outputs are computed and dropped, so that time goes on the same either way.
final class PluginInstance {
    let layout: PluginLayout
    let sampleRate: Int
    private let model: any EnhancerModel
    private let modelFolder: String
    private var channels: [LiveEnhancer]
    /// The model options the channels were built with (from the option ports at activation).
    private var builtOptions = EnhancerOptions()

    private let inputs: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>?>
    private let outputs: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>?>
    /// Every control port's host memory, by port index (nil: not connected, or not a control).
    private let controls: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>?>
    private let attenuationLimitPort: Int?
    private let enablePort: Int?
    private let latencyPort: Int?
    /// Each channel's input for one chunk (all are read before any output is written, since a
    /// host may hand the same memory to an input and an output), and where unconnected outputs go.
    private let chunkInputs: [UnsafeMutableBufferPointer<Float>]
    private let sink: UnsafeMutableBufferPointer<Float>

    /// - Throws: `EnhancerError` naming the model that is missing or the rate that cannot be served.
    init(layout: PluginLayout, sampleRate: Double, pluginPath: String) throws {
        guard sampleRate.isFinite, sampleRate == sampleRate.rounded(), sampleRate >= 1, sampleRate <= 1e7 else {
            throw EnhancerError.unsupported("\(sampleRate) Hz: the sample rate must be a whole number of Hz")
        }
        self.layout = layout
        self.sampleRate = Int(sampleRate)
        let reference: String
        switch layout.model {
        case .named(let name): reference = name
        case .fromEnvironment:
            guard let named = ProcessInfo.processInfo.environment[PluginLayout.environmentVariable], !named.isEmpty else {
                throw EnhancerError.modelNotFound(
                    "set \(PluginLayout.environmentVariable) to the model this plugin runs: a folder with a card.json, or a name `dfkit models` lists")
            }
            reference = named
        }
        (model, modelFolder) = try SharedModels.acquire(reference, roots: ModelCatalog.searchRoots(forPluginAt: pluginPath))
        do {
            channels = try Self.makeChannels(layout: layout, model: model, sampleRate: self.sampleRate, options: EnhancerOptions())
        } catch {
            SharedModels.release(folder: modelFolder)
            throw error
        }
        inputs = .allocate(capacity: layout.channelCount)
        inputs.initialize(repeating: nil)
        outputs = .allocate(capacity: layout.channelCount)
        outputs.initialize(repeating: nil)
        controls = .allocate(capacity: layout.ports.count)
        controls.initialize(repeating: nil)
        attenuationLimitPort = layout.ports.firstIndex { if case .attenuationLimit = $0.role { true } else { false } }
        enablePort = layout.ports.firstIndex { if case .enable = $0.role { true } else { false } }
        latencyPort = layout.ports.firstIndex { if case .latency = $0.role { true } else { false } }
        let frameSize = channels[0].frameSize
        func buffer() -> UnsafeMutableBufferPointer<Float> {
            let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: frameSize)
            buffer.initialize(repeating: 0)
            return buffer
        }
        chunkInputs = (0..<layout.channelCount).map { _ in buffer() }
        sink = buffer()
    }

    deinit {
        inputs.deallocate()
        outputs.deallocate()
        controls.deallocate()
        for buffer in chunkInputs { buffer.deallocate() }
        sink.deallocate()
        SharedModels.release(folder: modelFolder)
    }

    private static func makeChannels(layout: PluginLayout, model: any EnhancerModel, sampleRate: Int,
                                     options: EnhancerOptions) throws -> [LiveEnhancer] {
        try (0..<layout.channelCount).map { _ in
            try LiveEnhancer(enhancer: model.makeStreamingEnhancer(options: options), sampleRate: sampleRate)
        }
    }

    /// Input sample n comes out at output sample n + latency (the same for every channel).
    var latency: Int { channels[0].latency }

    func connect(port: Int, to data: UnsafeMutablePointer<Float>?) {
        guard port >= 0, port < layout.ports.count else { return }
        switch layout.ports[port].role {
        case .audioInput(let channel): inputs[channel] = data
        case .audioOutput(let channel): outputs[channel] = data
        case .attenuationLimit, .option, .enable: controls[port] = data
        case .latency:
            controls[port] = data
            publishLatency()
        }
    }

    /// The host's `activate`: back to silence, with the model options of the option ports (they
    /// need new enhancers, so they take effect here and not in `run`).
    func activate() {
        var options = EnhancerOptions()
        for (index, port) in layout.ports.enumerated() {
            guard case .option(let option) = port.role, let value = controls[index]?.pointee, value.isFinite else { continue }
            let clamped = min(max(value, port.range.lowerBound), port.range.upperBound)
            if clamped != port.defaultValue { options[option.name] = .number(Double(clamped)) }
        }
        if options != builtOptions,
           let rebuilt = try? Self.makeChannels(layout: layout, model: model, sampleRate: sampleRate, options: options) {
            channels = rebuilt
            builtOptions = options
        }
        for channel in channels { channel.reset() }
        publishLatency()
    }

    func run(_ count: Int) {
        publishLatency()
        guard count > 0 else { return }
        // A NaN from the host switches nothing off.
        let enabled = enablePort.flatMap { controls[$0] }.map { !($0.pointee <= 0) } ?? true
        let attenuationLimit = attenuationLimitPort.flatMap { controls[$0] }?.pointee ?? 100
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
        if let latencyPort { controls[latencyPort]?.pointee = Float(latency) }
    }
}
