import DSP

/// How a signal is analysed for display: about 20 ms Hann windows (1024 at 48 kHz, 512 at
/// 16 kHz), hop a quarter window, centred frames (as if padded by half a window at both ends, so
/// that they reach both ends), and as many frames averaged per column as keep the image within
/// `maximumColumns`.
struct SpectrogramLayout {
    let fftSize: Int
    let hopSize: Int
    let framesPerColumn: Int

    init(sampleRate: Int, sampleCount: Int, maximumColumns: Int) {
        var fftSize = 16
        while fftSize < sampleRate / 50 { fftSize *= 2 }
        let hopSize = fftSize / 4
        let frames = Spectrogram.frameCount(sampleCount: sampleCount + fftSize, fftSize: fftSize, hopSize: hopSize)
        self.fftSize = fftSize
        self.hopSize = hopSize
        framesPerColumn = max(1, (frames + maximumColumns - 1) / maximumColumns)
    }

    func grid(_ samples: ArraySlice<Float>, maximumRows: Int) throws -> DecibelGrid {
        DecibelGrid(try Spectrogram(signal: samples, fftSize: fftSize, hopSize: hopSize, framesPerColumn: framesPerColumn, centered: true),
                    maximumRows: maximumRows)
    }
}
