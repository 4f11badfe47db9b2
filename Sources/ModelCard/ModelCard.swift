/// A model card: the short declarative file (`card.json`) beside a model's ONNX graphs that says
/// how to run them as a streaming speech enhancer — the rate, the framing of the signal, the
/// features each graph takes and what it gives back, the state carried from call to call, and
/// where the graphs come from. With a card, a model needs no code of its own: `CardModel` and
/// `CardEnhancer` run any card behind the enhancer seam.
///
/// The format (version 1), every field checked by `ModelCard(json:)` and, against the graphs,
/// by `CardCheck`:
///
///     {"card": 1, "name": "dtln", "summary": "…", "licence": "MIT", "source": "…",
///      "sample_rate": 16000,
///      "framing": {"frame": 512, "hop": 128, "fft": 512, "start": -384,
///                  "window": {"kind": "rectangular"}, "normalisation": "none"},
///      "graphs": [{"name": "mask", "file": "model_1.onnx", "sha256": "…",
///                  "inputs": {"input_2": {"feature": "magnitude"},
///                             "input_3": {"state": "tf_op_layer_stack_2"}},
///                  "outputs": {"activation_2": {"apply": "mask"}}}, …]}
///
/// README's "Bring your own model" documents each field.
public struct ModelCard: Sendable, Equatable {
    /// The one format version this reader knows.
    public static let formatVersion = 1
    /// The card's file name inside a model folder.
    public static let fileName = "card.json"

    /// The name `--model` takes.
    public var name: String
    public var summary: String
    public var licence: String
    /// Where the graphs come from (a paper, a repository, the wheel they were taken from).
    public var source: String
    public var sampleRate: Int
    public var framing: Framing
    /// Run in this order for every frame.
    public var graphs: [GraphEntry]
    /// Free text for the reader of the card (`card init` leaves its guesses here).
    public var notes: [String]

    /// How the signal is cut into frames and put back together.
    public struct Framing: Sendable, Equatable {
        /// Samples per frame (the window's length).
        public var frame: Int
        /// Samples from one frame's start to the next.
        public var hop: Int
        /// The FFT size; a frame is zero-padded to it.
        public var fft: Int
        public var placement: Placement
        public var window: Window
        /// The synthesis window (the analysis window when the card names none).
        public var synthesisWindow: Window
        public var normalisation: Normalisation

        public init(frame: Int, hop: Int, fft: Int, placement: Placement, window: Window, synthesisWindow: Window, normalisation: Normalisation) {
            self.frame = frame
            self.hop = hop
            self.fft = fft
            self.placement = placement
            self.window = window
            self.synthesisWindow = synthesisWindow
            self.normalisation = normalisation
        }
    }

    /// Where frames lie on the signal.
    public enum Placement: Sendable, Equatable {
        /// Frame t covers samples [start + t·hop, start + t·hop + frame); samples before the
        /// signal and after its end are zeros, and frames go on until every sample of the signal
        /// has its output.
        case start(Int)
        /// `torch.stft(center=True)` with reflect padding: frame t is centred on sample t·hop,
        /// the signal reflected at both ends; frames t = 0 … ⌊length/hop⌋, and the end of the
        /// output normalised by the window products actually there (`torch.istft`).
        case centreReflect
    }

    /// An analysis or synthesis window.
    public struct Window: Sendable, Equatable {
        public enum Kind: String, Sendable, CaseIterable {
            case rectangular, hann, hamming, vorbis
        }

        public var kind: Kind
        /// Periodic (the DFT-even form: `scipy.signal.get_window`, `torch.hann_window`) or
        /// symmetric (`np.hanning`); ignored by the rectangular and Vorbis windows.
        public var periodic: Bool
        /// Each value raised to this power (0.5: the square-root window).
        public var power: Double

        public init(kind: Kind, periodic: Bool = true, power: Double = 1) {
            self.kind = kind
            self.periodic = periodic
            self.power = power
        }
    }

    /// How the overlap-added frames become output samples.
    public enum Normalisation: String, Sendable, CaseIterable {
        /// As they are.
        case none
        /// Divided by the summed analysis · synthesis window products at each point (the
        /// least-squares synthesis; `torch.istft`).
        case windowSum = "window-sum"
    }

    /// One graph of the chain.
    public struct GraphEntry: Sendable, Equatable {
        /// How other graphs' inputs refer to it.
        public var name: String
        /// The ONNX file, relative to the card's folder.
        public var file: String
        /// Its SHA-256, lower-case hex.
        public var sha256: String
        /// The symbolic dimension the graph runs along frame by frame (its state then carried by
        /// the engine); nil for a graph that takes one frame per call with explicit state.
        public var timeAxis: String?
        /// Every graph input, by name, and what feeds it.
        public var inputs: [String: InputBinding]
        /// The outputs that act on the frame, by name, and how.
        public var outputs: [String: OutputRole]
    }

    /// What feeds a graph input.
    public enum InputBinding: Sendable, Equatable {
        /// A feature of the frame as the chain has it so far.
        case feature(Feature)
        /// A state carried from call to call: the output it is fed from, and its start (nil:
        /// zeros; else a `.npy` file in the card's folder).
        case state(output: String, start: String?)
        /// An output of an earlier graph in the chain.
        case connection(graph: String, output: String)
    }

    /// A feature of the current frame.
    public enum Feature: Sendable, Equatable {
        /// |X| per bin.
        case magnitude
        /// |X|² per bin.
        case power
        /// log10(max(|X|², floor)) per bin.
        case logPower(floor: Double)
        /// The complex spectrum, real and imaginary parts in the layout named.
        case complex(ComplexLayout)
        /// The time block (`fft` samples): the windowed frame, or the inverse FFT of the
        /// spectrum once a graph has changed it.
        case time
    }

    /// How a complex spectrum lies in a tensor.
    public enum ComplexLayout: String, Sendable, CaseIterable {
        /// (re, im) pairs bin after bin: `[…, bins, …, 2]`.
        case interleaved
        /// All real parts, then all imaginary parts: `[…, 2, bins]`.
        case planar
    }

    /// What a graph output does to the frame.
    public enum OutputRole: Sendable, Equatable {
        /// A real gain per bin multiplying the spectrum, optionally clipped to a range first.
        case mask(clip: ClosedRange<Double>?)
        /// The new complex spectrum.
        case spectrum(ComplexLayout)
        /// The new time block (`fft` samples).
        case time
    }
}
