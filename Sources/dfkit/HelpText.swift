import Foundation

/// The layout of the OPTIONS part of a command's help, for entries made from descriptions
/// (model options, metrics): the flag at column 2, its text from column 24, wrapped at 94.
enum HelpText {
    static let textColumn = 24
    static let width = 94

    /// `flag` and `text` as help lines; a flag too long for its column gets the text on the next line.
    static func entry(_ flag: String, _ text: String) -> [String] {
        var lines: [String] = []
        var line = "  " + flag
        if line.count >= textColumn - 1 {
            lines.append(line)
            line = ""
        }
        line = line.padding(toLength: textColumn, withPad: " ", startingAt: 0)
        var empty = true
        for word in text.split(separator: " ") {
            if !empty && line.count + 1 + word.count > width {
                lines.append(line)
                line = String(repeating: " ", count: textColumn)
                empty = true
            }
            line += (empty ? "" : " ") + word
            empty = false
        }
        lines.append(line)
        return lines
    }
}
