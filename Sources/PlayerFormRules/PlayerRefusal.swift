/// Why the player view model refused an input.
///
/// The message is for the user.
public enum PlayerRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// Every point update allowed has been used.
    case noPointUpdatesLeft(limit: Int)
    /// The form is locked after its last upload.
    case locked(uploads: Int)
    /// The form is not valid, so it cannot be uploaded.
    case invalid([ValidationIssue])
    /// An upload is already running.
    case uploadInProgress
    /// The new stepper configuration is not consistent.
    case rejectedRules(RulesError)
    /// The stepper was given something that is not a number.
    case notANumber
    /// The stepper was asked to be pressed zero or a negative number of times.
    case invalidPressCount(Int)
    /// A press of the stepper would leave the points as they are: the step is below the
    /// precision of a Double at their magnitude.
    case stepTooSmall(step: Double, points: Double)
    /// A press of the stepper would not move the points by exactly the step: a Double cannot
    /// keep the result to ``PlayerRules/stepperDigits`` significant digits.
    case stepNotExact(step: Double, points: Double)

    /// The reason the form refused the input, as a sentence to show.
    public var description: String {
        switch self {
        case .noPointUpdatesLeft(let limit):
            "No point updates left: the points can be changed \(limit) \(limit == 1 ? "time" : "times")."
        case .locked(let uploads):
            "The form is locked after \(uploads) \(uploads == 1 ? "upload" : "uploads")."
        case .invalid(let issues):
            "The form is not valid: " + issues.map(\.message).joined(separator: " ")
        case .uploadInProgress:
            "An upload is already running."
        case .rejectedRules(let error):
            "Not accepted: \(error)."
        case .notANumber:
            "Points must be a number."
        case .invalidPressCount(let count):
            "The stepper can be pressed 1 or more times, not \(count)."
        case .stepTooSmall(let step, let points):
            "Step \(PointsFormat.text(step)) is too small to change \(PointsFormat.text(points)) points."
        case .stepNotExact(let step, let points):
            "Step \(PointsFormat.text(step)) cannot move \(PointsFormat.text(points)) points exactly: "
                + "the result cannot be kept to \(PlayerRules.stepperDigits) significant digits."
        }
    }
}

/// What a stepper input did.
public struct StepperOutcome: Equatable, Sendable {
    /// The points after the input.
    public let points: Double
    /// The value asked for, when it lay outside min...max and was clamped.
    public let requested: Double?
    /// How many point updates the input used: one per change of the points.
    public let updatesUsed: Int
    /// Why pressing stopped before every press was made, when it did.
    public let refusal: PlayerRefusal?
    /// How many presses were asked for; 0 when the stepper was set to a value.
    public let presses: Int
    /// The bound the stepper kept the points at, or stopped at with presses left; nil when no
    /// press reached beyond a bound.
    public let bound: StepperBound?

    /// Creates an outcome.
    public init(
        points: Double, requested: Double?, updatesUsed: Int, refusal: PlayerRefusal?, presses: Int = 0,
        bound: StepperBound? = nil
    ) {
        self.points = points
        self.requested = requested
        self.updatesUsed = updatesUsed
        self.refusal = refusal
        self.presses = presses
        self.bound = bound
    }

    /// Whether the requested value was clamped to min...max.
    public var wasClamped: Bool { requested != nil }
}
