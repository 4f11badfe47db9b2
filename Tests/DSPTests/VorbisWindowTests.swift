import Foundation
import Testing
import DSP
import TestSupport

@Suite struct VorbisWindowTests {
    /// Two float32 ulps of 1 (2 · 2⁻²³ ≈ 2.38e-7), rounded up.
    static let twoUlpsOfOne: Float = 2.4e-7

    let window = VorbisWindow.make(length: 960)

    @Test func spotValuesFromTheSpec() {
        // Values printed in dfn3-pipeline.md §2.1 (float32 of the Double formula): exact equality.
        #expect(window[0] == 4.2054917e-06)
        #expect(window[1] == 3.7849153e-05)
        #expect(window[2] == 1.0513504e-04)
        #expect(window[239] == 0.70528704)
        #expect(window[240] == 0.70892185)
        #expect(window[479] == 1.0)
        #expect(window[480] == 1.0)
    }

    @Test func symmetricAndPowerComplementary() {
        for n in 0..<480 {
            #expect(window[n] == window[959 - n])
            // Princen–Bradley holds exactly in real numbers; float32 rounding of each w leaves ≤ 2 ulp of 1.
            #expect(abs(window[n] * window[n] + window[n + 480] * window[n + 480] - 1) <= Self.twoUlpsOfOne)
        }
    }

    @Test func equalsLibDF() throws {
        let fixture = try LibDFFixture()
        #expect(window == (try fixture.floats("window")))
    }
}
