/// Simulated time on the audio thread: callbacks arrive on the hardware's schedule, each one
/// starts when both it has arrived and the previous one has finished, and is charged the
/// processing time of its frames (measured or fixed) plus any injected stall.
public struct VirtualClock {
    /// When the audio thread becomes free, in seconds.
    public private(set) var busyUntil: Double = 0
    private var arrival: Double = 0
    private var start: Double = 0
    private var deadline: Double = 0
    private var processing: Double = 0
    private var stall: Double = 0

    public init() {}

    /// Opens a callback that arrives at `arrival` and must finish by `deadline`.
    public mutating func beginCallback(arrival: Double, deadline: Double) {
        self.arrival = arrival
        self.deadline = deadline
        start = max(arrival, busyUntil)
        processing = 0
        stall = 0
    }

    /// Charges `seconds` of frame processing to the open callback.
    public mutating func chargeProcessing(_ seconds: Double) {
        processing += seconds
    }

    /// Charges an injected stall to the open callback.
    public mutating func chargeStall(_ seconds: Double) {
        stall += seconds
    }

    /// The timing of the open callback, which it closes.
    public mutating func endCallback() -> CallbackTiming {
        let work = processing + stall
        let finish = start + work
        busyUntil = finish
        var miss: DeadlineMiss?
        if finish > deadline {
            if stall > 0 {
                miss = .stall
            } else if work > deadline - arrival {
                miss = .processing
            } else {
                miss = .backlog
            }
        }
        return CallbackTiming(start: start, finish: finish, processing: processing, stall: stall,
                              load: work / (deadline - arrival), miss: miss)
    }
}
