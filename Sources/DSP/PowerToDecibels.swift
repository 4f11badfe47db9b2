import Glibc

/// librosa's `power_to_db(S, ref=np.max, amin=1e-10, top_db=80)` in float32, as librosa computes
/// it on float32 input: 10·log10(max(amin, S)) − 10·log10(max(amin, max S)), then floored at the
/// result's maximum minus `topDecibels`.
public enum PowerToDecibels {
    public static func relativeToMaximum(_ values: UnsafeMutableBufferPointer<Float>, amin: Float = 1e-10, topDecibels: Float = 80) {
        guard let reference = values.max() else { return }
        let offset = 10 * log10f(max(amin, reference))
        var highest = -Float.infinity
        for index in values.indices {
            values[index] = 10 * log10f(max(amin, values[index])) - offset
            highest = max(highest, values[index])
        }
        let floor = highest - topDecibels
        for index in values.indices { values[index] = max(values[index], floor) }
    }
}
