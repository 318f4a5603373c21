import EventSourcing
import Foundation

/// A command the API runs on a request's behalf, after or before the request's own (a claim of
/// an invitation after a verification, a leave of each group before an erasure). It goes through
/// `CommandRunner` like every command (metrics, read-your-writes), without the request's
/// `Idempotency-Key` and `If-Match`: those name the request's own command and entity, so the
/// follow-up gets a command id of its own and no expected version.
struct FollowUpCommand: Sendable {
    let runtime: LogbookRuntime

    /// Runs `command` as `actor`; the read models include it on return. A refusal with the
    /// code of `ignoring` (a group gone meanwhile) is nothing to do; any other is thrown.
    func run<D: Decider>(_ decider: D.Type, _ command: D.Command, actor: String, ignoring refusal: D.Failure) async throws {
        var info = RequestInfo.current
        info.idempotencyKey = nil
        info.ifMatch = nil
        do {
            _ = try await RequestInfo.$current.withValue(info) {
                try await CommandRunner(runtime: runtime).run(D.self, command, actor: actor)
            }
        } catch let problem as Problem where problem.code == refusal.code {
            return
        }
    }
}
