import Enhancement

extension EnhancerOptions {
    /// The enhancer options on the command line (`--atten-lim DB`, `--pf-beta B`,
    /// `--thresholds SET`), checked for range here and against the model when it is built.
    init(parsing arguments: inout ArgumentList) throws {
        self.init()
        if let limit = try arguments.number("--atten-lim", as: Float.self) {
            guard limit.isFinite else { throw CommandLineError("--atten-lim must be a finite number of dB") }
            attenuationLimitDecibels = limit
        }
        if let beta = try arguments.number("--pf-beta", as: Float.self) {
            guard beta.isFinite, beta >= 0 else { throw CommandLineError("--pf-beta must be a number ≥ 0") }
            postFilterBeta = beta
        }
        if let thresholds = try arguments.value("--thresholds") {
            guard ["default", "upstream"].contains(thresholds) else {
                throw CommandLineError("--thresholds must be 'default' or 'upstream', got '\(thresholds)'")
            }
            self.thresholds = thresholds
        }
    }
}
