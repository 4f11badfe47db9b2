/// How a DFN3 network tensor holds its frames: `[1, C, S, F]` (channel-major, time third) or
/// `[1, S, F]` (time second). One frame is `channels` runs of `width` floats, `frames·width` apart.
struct FrameTensorLayout {
    /// `nil` for `[1, S, F]` tensors.
    let channels: Int?
    let width: Int

    static func channelMajor(channels: Int, width: Int) -> FrameTensorLayout {
        FrameTensorLayout(channels: channels, width: width)
    }

    static func timeMajor(width: Int) -> FrameTensorLayout {
        FrameTensorLayout(channels: nil, width: width)
    }

    var floatsPerFrame: Int { (channels ?? 1) * width }

    func shape(frames: Int) -> [Int] {
        if let channels { [1, channels, frames, width] } else { [1, frames, width] }
    }

    /// Copies frame `frame` of a tensor with `frames` frames into frame `destinationFrame` of a
    /// tensor with `destinationFrames` frames.
    func copyFrame(_ frame: Int, of source: UnsafePointer<Float>, frames: Int,
                   to destinationFrame: Int, of destination: UnsafeMutablePointer<Float>, frames destinationFrames: Int) {
        for channel in 0..<(channels ?? 1) {
            (destination + (channel * destinationFrames + destinationFrame) * width)
                .update(from: source + (channel * frames + frame) * width, count: width)
        }
    }
}
