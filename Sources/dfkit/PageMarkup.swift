import Corpus
import Foundation
import Plotting

/// The pieces `dfkit report --html` and `dfkit listen --html` write their pages from: elements are
/// Plotting's `SVGElement`s (the one place text and attribute values are escaped), rows the page's
/// script draws from its data file; the script and style sheets are embedded in dfkit
/// (Sources/dfkit/Page) and written beside the page. Nothing is loaded from the network.
enum PageMarkup {
    /// An element that HTML must see closed (`<div></div>`, never `<div/>`).
    static func element(_ name: String, _ attributes: KeyValuePairs<String, any SVGAttributeValue> = [:], _ children: [SVGElement]) -> SVGElement {
        SVGElement(name, attributes, children: children)
    }

    static func text(_ name: String, _ attributes: KeyValuePairs<String, any SVGAttributeValue> = [:], _ text: String) -> SVGElement {
        SVGElement(name, attributes, text: text)
    }

    /// `rows` as a table, the first row its header.
    static func table(_ rows: [[String]], class className: String) -> SVGElement {
        element("table", ["class": className], [
            element("thead", [:], [element("tr", [:], rows[0].map { text("th", ["scope": "col"], $0) })]),
            element("tbody", [:], rows.dropFirst().map { row in element("tr", [:], row.map { text("td", [:], $0) }) }),
        ])
    }

    /// The whole page: `body`, then the data file and the script (after the content, so that
    /// the script finds its elements).
    static func document(title: String, body: [SVGElement], scripts: [String]) -> String {
        "<!DOCTYPE html>\n" + element("html", ["lang": "en"], [
            element("head", [:], [
                SVGElement("meta", ["charset": "utf-8"]),
                SVGElement("meta", ["name": "viewport", "content": "width=device-width, initial-scale=1"]),
                text("title", [:], title),
                SVGElement("link", ["rel": "stylesheet", "href": "page.css"]),
            ]),
            element("body", [:], body + scripts.map { text("script", ["src": $0], "") }),
        ]).markup + "\n"
    }

    /// Creates the page's folder (`--html DIR`). - Throws: `CorpusError.invalidRun` naming it.
    static func prepare(_ directory: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CorpusError.invalidRun("--html \(directory): cannot be created (\(error.localizedDescription))")
        }
        guard FileManager.default.isWritableFile(atPath: directory) else { throw CorpusError.invalidRun("--html \(directory): not writable") }
    }

    /// Writes `files` (name → bytes) into `directory`, each through a temporary file.
    static func write(_ files: [String: [UInt8]], to directory: String) throws {
        for (name, bytes) in files {
            try Data(bytes).write(to: URL(fileURLWithPath: directory).appendingPathComponent(name), options: .atomic)
        }
    }

    /// `value` as the data file a page's script reads: `window.NAME = JSON.parse("…");` (a script,
    /// not a JSON file, so that it loads from file:// as well as from a server; the JSON as a
    /// string, which the browser reads several times faster than the same object as a literal).
    /// The string is the JSON text encoded as a JSON string, which is a JavaScript string literal
    /// as well. Keys as Swift names them (no key strategy: it would rewrite dictionary keys, the
    /// corpus's ids and systems, too).
    static func dataScript<T: Encodable>(_ name: String, _ value: T) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = String(decoding: try encoder.encode(value), as: UTF8.self)
        return Array("\"use strict\";\nwindow.\(name) = JSON.parse(".utf8) + Array(try encoder.encode(json)) + Array(");\n".utf8)
    }
}
