/// Decider tests as given / when / then, without I/O:
/// `try Household.given([created]).when(.addRoom(...), metadata).events` or `.failure`.
extension Decider {
    /// The state after `events`, ready for a command.
    public static func given(_ events: [Event]) -> Scenario<Self> {
        Scenario(state: fold(events))
    }
}

/// A decider in a given state.
public struct Scenario<D: Decider> {
    /// The folded state.
    public let state: D.State

    /// Decides `command`; the result holds the new events or the refusal.
    public func when(_ command: D.Command, _ metadata: CommandMetadata) -> Result<[D.Event], D.Failure> {
        Result { () throws(D.Failure) -> [D.Event] in try D.decide(command, state: state, metadata: metadata) }
    }
}

extension Result {
    /// The refusal, or nil when the command succeeded: `given(...).when(...).failure`.
    public var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
