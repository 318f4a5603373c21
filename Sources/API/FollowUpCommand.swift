import CommandHandling
import EventSourcing
import Foundation
import Projections

/// A command the API runs on a request's behalf, after or before the request's own (a claim of
/// an invitation after a verification, a leave of each group before an erasure): with a command
/// id of its own, since the request's Idempotency-Key names the request's own command, and
/// waited for in the read models like every command, so the request's answer reflects it.
struct FollowUpCommand: Sendable {
    let runtime: LogbookRuntime

    /// Runs `command` as `actor` and waits until the read models include it; a refusal is
    /// returned as the domain's error, for the caller to judge, anything else thrown as a problem.
    func run<D: Decider>(_ decider: D.Type, _ command: D.Command, actor: String) async throws -> D.Failure? {
        let now = runtime.configuration.clock()
        let metadata = CommandMetadata(
            actor: actor, now: now, commandID: .timeOrdered(at: now), correlationID: RequestCorrelation.current?.commandCorrelationID)
        let outcome: CommandOutcome<D>
        do throws(CommandFailure<D.Failure>) {
            outcome = try await runtime.commands.handle(D.self, command, metadata: metadata)
        } catch .rejected(let refusal) {
            return refusal
        } catch {
            throw ProblemMapping.problem(for: error)
        }
        runtime.metrics.recordCommand(D.self, carriedOut: outcome)
        try await runtime.projections.waitUntilProjected(outcome.position, timeout: runtime.configuration.readYourWritesTimeout)
        return nil
    }
}
