extension Array where Element == Double {
    /// The median the scenarios report over their rounds: the middle of the sorted values, for an
    /// even count the upper of the two middles (a value that was measured, never an average of two).
    var roundsMedian: Double { sorted()[count / 2] }
}
