/// Replaces every NaN and ±infinity in `samples` by 0, in place; returns how many were replaced.
@discardableResult
public func replaceNonFiniteSamples(in samples: UnsafeMutableBufferPointer<Float>) -> Int {
    var replaced = 0
    for i in samples.indices where !samples[i].isFinite {
        samples[i] = 0
        replaced += 1
    }
    return replaced
}

/// Replaces every NaN and ±infinity in `samples` by 0, in place; returns how many were replaced.
@discardableResult
public func replaceNonFiniteSamples(in samples: inout [Float]) -> Int {
    samples.withUnsafeMutableBufferPointer { replaceNonFiniteSamples(in: $0) }
}
