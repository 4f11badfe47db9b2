/// One audio file as a page shows it: a player and a spectrogram, or why there are none.
struct PageMedia: Encodable {
    /// Where the file is (shown; never used as a URL).
    let path: String
    /// The player's page-relative URL (nil when the file cannot be played).
    let src: String?
    /// The spectrogram's page-relative URL.
    let spectrogram: String?
    let seconds: Double?
    /// "missing" when there is no file, "unreadable: …" when it cannot be decoded.
    let problem: String?
}
