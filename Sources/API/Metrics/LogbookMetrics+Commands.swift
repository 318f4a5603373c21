import CommandHandling
import EventSourcing

extension LogbookMetrics {
    /// A command the handler carried out (or replayed, under a known Idempotency-Key).
    func recordCommand<D: Decider>(_ decider: D.Type, carriedOut outcome: CommandOutcome<D>) {
        recordCommand(Self.commandLabel(D.self), outcome: outcome.isReplay ? .replayed : .accepted)
    }

    /// A command refused (4xx: a rule, contention, a reused key) or failed (5xx), by its problem's code.
    func recordCommand<D: Decider>(_ decider: D.Type, refused problem: Problem) {
        recordCommand(Self.commandLabel(D.self), outcome: problem.status >= 500 ? .failed : .rejected, code: problem.code)
    }

    /// The decider's type name (`HouseholdDecider`): one of a fixed set, unlike the command's payload.
    static func commandLabel<D: Decider>(_ decider: D.Type) -> String {
        String(describing: D.self)
    }
}
