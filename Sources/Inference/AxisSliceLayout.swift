/// Where the slices along one axis of a contiguous float tensor lie: for each of the `outer`
/// index combinations before the axis, a slice is one run of `inner` floats (the dimensions after
/// it), and consecutive slices of a run are `inner` apart. Frames along a time axis and streams
/// along a batch axis are both such slices.
public struct AxisSliceLayout: Sendable, Equatable {
    public let outer: Int
    public let inner: Int

    /// The layout of a tensor of `shape` sliced along `axis`.
    public init(shape: [Int], axis: Int) {
        outer = shape[..<axis].reduce(1, *)
        inner = shape[(axis + 1)...].reduce(1, *)
    }

    /// Copies slice `index` of a tensor with `count` slices into slice `destinationIndex` of a
    /// tensor of the same layout with `destinationCount` slices.
    public func copySlice(_ index: Int, of source: UnsafePointer<Float>, count: Int,
                          to destinationIndex: Int, of destination: UnsafeMutablePointer<Float>, count destinationCount: Int) {
        for run in 0..<outer {
            (destination + (run * destinationCount + destinationIndex) * inner)
                .update(from: source + (run * count + index) * inner, count: inner)
        }
    }

    /// Sets slice `index` of a tensor with `count` slices to `value`.
    public func fillSlice(_ index: Int, of tensor: UnsafeMutablePointer<Float>, count: Int, with value: Float) {
        for run in 0..<outer {
            (tensor + (run * count + index) * inner).update(repeating: value, count: inner)
        }
    }
}
