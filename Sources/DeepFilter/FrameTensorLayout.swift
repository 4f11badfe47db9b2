import Inference

/// Where the frames of a tensor lie along its time axis: for each of the `outer` index
/// combinations before the time axis, a frame is one run of `inner` floats (the dimensions after
/// it), and consecutive frames of a run are `inner` apart.
struct FrameTensorLayout {
    let outer: Int
    let inner: Int

    /// The layout of a tensor of `shape` whose time axis is `timeAxis`.
    init(shape: [Int], timeAxis: Int) {
        outer = shape[..<timeAxis].reduce(1, *)
        inner = shape[(timeAxis + 1)...].reduce(1, *)
    }

    var floatsPerFrame: Int { outer * inner }

    /// Copies frame `frame` of a tensor with `frames` frames into frame `destinationFrame` of a
    /// tensor of the same layout with `destinationFrames` frames.
    func copyFrame(_ frame: Int, of source: UnsafePointer<Float>, frames: Int,
                   to destinationFrame: Int, of destination: UnsafeMutablePointer<Float>, frames destinationFrames: Int) {
        for run in 0..<outer {
            (destination + (run * destinationFrames + destinationFrame) * inner)
                .update(from: source + (run * frames + frame) * inner, count: inner)
        }
    }
}
