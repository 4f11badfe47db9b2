import Realtime

/// A processor whose output depends on every earlier sample and on where frames begin: a leaky
/// integrator carried across frames, scaled by a gain that cycles with the frame index. Any lost,
/// repeated, reordered or shifted sample changes its output from then on.
struct StatefulTestProcessor: FrameProcessor {
    var latencySamples: Int { 0 }
    private var memory: Float = 0
    private var frameIndex = 0

    mutating func process(_ frame: UnsafeMutableBufferPointer<Float>) -> Bool {
        let gain: Float = 1 + 0.25 * Float(frameIndex % 3)
        for index in frame.indices {
            memory = frame[index] + 0.5 * memory
            frame[index] = gain * memory
        }
        frameIndex += 1
        return true
    }
}

/// Scribbles over every frame and reports failure on every `failEvery`-th one.
struct FailingTestProcessor: FrameProcessor {
    var latencySamples: Int { 0 }
    let failEvery: Int
    private var frameIndex = 0

    init(failEvery: Int) {
        self.failEvery = failEvery
    }

    mutating func process(_ frame: UnsafeMutableBufferPointer<Float>) -> Bool {
        frameIndex += 1
        frame.update(repeating: 42)
        return frameIndex % failEvery != 0
    }
}

/// Runs `processor` directly over `samples` cut into frames of `frameSize`, with no capture path.
func processDirectly(_ samples: [Float], frameSize: Int, with processor: some FrameProcessor) -> [Float] {
    var processor = processor
    var output: [Float] = []
    var frame = [Float](repeating: 0, count: frameSize)
    var start = 0
    while start + frameSize <= samples.count {
        frame.replaceSubrange(0..<frameSize, with: samples[start..<start + frameSize])
        _ = frame.withUnsafeMutableBufferPointer { processor.process($0) }
        output += frame
        start += frameSize
    }
    return output
}
