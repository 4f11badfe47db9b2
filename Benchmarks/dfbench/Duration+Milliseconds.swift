extension Duration {
    /// This duration in milliseconds, as the benchmark tables print times.
    var milliseconds: Double {
        Double(components.attoseconds) / 1e15 + Double(components.seconds) * 1e3
    }
}
