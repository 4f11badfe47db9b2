import Plotting
import Testing

/// What every chart relies on: text and attributes escaped, numbers written one way, documents
/// that start as SVG and close.
@Suite struct SVGElementTests {
    @Test func escapesAllFiveXMLCharactersInTextAndAttributes() {
        let hostile = "a & b < c > d \" e ' f"
        let element = SVGElement("text", ["data-name": hostile], text: hostile)
        let escaped = "a &amp; b &lt; c &gt; d &quot; e &apos; f"
        #expect(element.markup == "<text data-name=\"\(escaped)\">\(escaped)</text>")
    }

    @Test func writesNumbersWithAtMostThreeDecimalsAndNoNegativeZero() {
        #expect(SVGNumber.text(80) == "80")
        #expect(SVGNumber.text(0.125) == "0.125")
        #expect(SVGNumber.text(12.3456) == "12.346")
        #expect(SVGNumber.text(-0.0001) == "0")
        #expect(SVGNumber.text(-2.5) == "-2.5")
    }

    @Test func documentDeclaresItsNamespaceAndSizeAndCloses() {
        var document = SVGDocument(width: 100, height: 50.5, attributes: ["font-size": 13])
        document.append(SVGElement("line", ["x1": 0, "y1": 0, "x2": 10, "y2": 10, "stroke": "#333"]))
        #expect(document.markup == """
            <svg xmlns="http://www.w3.org/2000/svg" width="100" height="50.5" viewBox="0 0 100 50.5" font-size="13">
            <rect width="100%" height="100%" fill="white"/>
            <line x1="0" y1="0" x2="10" y2="10" stroke="#333"/>
            </svg>

            """)
    }

    @Test func niceStepsAreOneTwoOrFiveTimesAPowerOfTen() {
        #expect(AxisTicks.niceStep(span: 10, targetCount: 10) == 1)
        #expect(AxisTicks.niceStep(span: 24, targetCount: 6) == 5)
        #expect(AxisTicks.ticks(from: -1, to: 1, step: 0.5) == [-1, -0.5, 0, 0.5, 1])
        #expect(AxisTicks.label(-0.5, step: 0.5) == "−0.5")
    }
}
