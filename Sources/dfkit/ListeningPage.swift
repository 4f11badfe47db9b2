import Corpus
import Foundation
import Plotting

/// The page of `dfkit listen --html DIR`: `listen.js` draws the trials of `listen-data.js` (audio
/// under hashed names, sides and orders as drawn) and downloads the listener's answers in the
/// format `ListeningAnswers` reads. The systems behind each trial are in the data, so that the
/// answers carry them; the page never shows them.
struct ListeningPage {
    struct Condition: Encodable {
        let kind: String
        let system: String?
        let src: String
    }

    struct Pair: Encodable {
        let trial: Int
        let id: String
        let a: Condition
        let b: Condition
    }

    struct Rating: Encodable {
        let trial: Int
        let id: String
        let reference: String
        let conditions: [Condition]
    }

    struct PageData: Encodable {
        let format: String
        let seed: UInt64
        let by: String
        let pairs: [Pair]
        let ratings: [Rating]
    }

    let test: ListeningTest
    let field: String
    let link: Bool

    func write(to directory: String) throws {
        try PageMarkup.prepare(directory)
        let audio = try PageAudio(pageDirectory: directory, link: link)
        func condition(_ condition: ListeningTest.Condition) throws -> Condition {
            Condition(kind: condition.kind.rawValue, system: condition.system, src: try audio.place(condition.audio))
        }
        let data = PageData(
            format: ListeningAnswers.format, seed: test.seed, by: field,
            pairs: try test.pairs.map { Pair(trial: $0.trial, id: $0.id, a: try condition($0.a), b: try condition($0.b)) },
            ratings: try test.ratings.map { rating in
                Rating(trial: rating.trial, id: rating.id, reference: try audio.place(rating.reference), conditions: try rating.conditions.map(condition))
            })
        audio.removeUnused()
        typealias M = PageMarkup
        var body: [SVGElement] = [
            M.element("header", [:], [
                M.text("h1", [:], "Listening test"),
                M.text("p", [:], """
                    Listen with headphones in a quiet room. In each pair, play A and B as often as you like and choose the one \
                    that sounds better. In each rating trial, compare every sample with the reference and rate it from 0 (bad) to \
                    100 (excellent); one of them is the reference itself. Then download your answers and send the file back.
                    """),
                M.element("label", [:], [M.text("span", [:], "Your name or initials "), SVGElement("input", ["id": "listener", "type": "text", "autocomplete": "off"])]),
            ]),
        ]
        if !data.pairs.isEmpty { body.append(M.element("section", ["id": "pairs"], [M.text("h2", [:], "Which sounds better?")])) }
        if !data.ratings.isEmpty { body.append(M.element("section", ["id": "ratings"], [M.text("h2", [:], "Rate each sample against the reference")])) }
        body.append(M.element("div", ["class": "finish"], [
            M.text("button", ["id": "download", "type": "button"], "Download answers"),
            M.text("span", ["id": "progress"], ""),
        ]))
        try PageMarkup.write([
            "listen-data.js": try PageMarkup.dataScript("dfkitListen", data),
            "listen.js": PackageResources.listen_js,
            "page.css": PackageResources.page_css,
            "index.html": Array(M.document(title: "Listening test", body: body, scripts: ["listen-data.js", "listen.js"]).utf8),
        ], to: directory)
    }
}
