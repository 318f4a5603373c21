import Accounts
import EventLog
import EventSourcing

/// Sessions by the hex SHA-256 of their token (`sessions`): what every authenticated request
/// looks up. Ended sessions stay, marked, so a revoked token is told apart from a made-up one.
public struct AccountSessionsProjection: Projection {
    /// The stable name.
    public var name: String { "accounts.sessions" }
    /// Version 2: values in the binary `ReadModelValue` form instead of JSON.
    public var version: Int { 2 }
    /// Only its domain's events reach it.
    public var reads: [any DecodableDomainEvent.Type]? { [AccountEvent.self] }
    /// `sessions`: token hash → session.
    public var tables: [String] { [Self.sessions] }

    static let sessions = "sessions"

    /// A projection value; it holds no state.
    public init() {}

    /// Folds session starts and ends; ignores other events.
    public func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        switch try event.decoded(as: AccountEvent.self) {
        case .sessionStarted(let p)?:
            try model.put(AccountSession(userId: p.userId, expiresAt: p.expiresAt, ended: false), at: p.tokenHash.hex, in: Self.sessions)
        case .sessionEnded(let p)?:
            guard var session = try model.value(AccountSession.self, at: p.tokenHash.hex, in: Self.sessions),
                  session.userId == p.userId else { return }
            session.ended = true
            try model.put(session, at: p.tokenHash.hex, in: Self.sessions)
        default:
            break
        }
    }
}
