import Accounts
import CommandHandling
import EventLog
import PostgresEventLog
import EventSourcing
import Foundation
import Projections

/// The account routes' work: `LogbookAPI+Accounts` hands a request's body here and encodes what
/// comes back. Refusals are thrown as `Problem`.
struct AccountsService: Sendable {
    let runtime: LogbookRuntime

    var runner: CommandRunner { CommandRunner(runtime: runtime) }
    var auth: AuthServices { runtime.auth }
    var queries: AccountQueries<EventLogBackend> { runtime.accounts }
    var now: Date { runtime.configuration.clock() }

    /// Runs an account command as `actor`. A replayed outcome must hold an event of one of
    /// `expectedTypes`: one without answers another command that used the same key. A replay of
    /// no events is a command that decided nothing, recorded only under a matching fingerprint.
    /// `entity` is the account's stream on routes whose `If-Match` names the caller's account.
    func run(_ command: AccountCommand, actor: String, entity: String? = nil, expecting expectedTypes: String...) async throws -> CommandOutcome<AccountDecider> {
        let outcome = try await runner.run(AccountDecider.self, command, actor: actor, entity: entity)
        if outcome.isReplay, !outcome.events.isEmpty, !outcome.events.contains(where: { expectedTypes.contains($0.typeName) }) {
            throw Self.idempotencyKeyReused
        }
        return outcome
    }

    /// The request's Idempotency-Key as a UUID; nil without one; 400 when it is not a UUID.
    func idempotencyKey() throws -> UUID? {
        guard RequestInfo.current.idempotencyKey != nil else { return nil }
        return try runner.metadata(actor: "").commandID
    }

    /// Whether the request's Idempotency-Key names a command the log already carried out: the
    /// request is a retry, to be answered with the first outcome.
    func isRetry() async throws -> Bool {
        guard let key = try idempotencyKey() else { return false }
        return try await runtime.log.appendResult(ofCommand: key) != nil
    }

    /// 422 `validation_failed` for one field.
    static func invalidField(_ field: String, _ message: String) -> Problem {
        ProblemMapping.problem(for: AccountError.validationFailed([FieldError(field, message)]))
    }

    /// 422 `idempotency_key_reused`.
    static var idempotencyKeyReused: Problem { ProblemMapping.problem(for: CommandFailure<AccountError>.idempotencyKeyReused) }

    /// 404 `account_not_found`: a valid session of an account the read model does not know.
    static var accountNotFound: Problem { ProblemMapping.problem(for: AccountError.accountNotFound) }
}
