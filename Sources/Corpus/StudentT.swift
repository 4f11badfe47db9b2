/// Quantiles of Student's t distribution, for confidence intervals of metric means.
public enum StudentT {
    /// t(0.975, ν) for ν = 1…30 (standard tables).
    private static let table: [Double] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ]

    /// The 97.5 % quantile with `degrees` degrees of freedom (≥ 1): from the table up to 30,
    /// beyond by the Cornish–Fisher expansion around the normal quantile (error < 1e-4 there).
    public static func quantile975(degrees: Int) -> Double {
        precondition(degrees >= 1, "Student's t needs at least one degree of freedom")
        if degrees <= table.count { return table[degrees - 1] }
        let z = 1.959963984540054, v = Double(degrees)
        let z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z
        return z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v)
            + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * v * v * v)
    }
}
