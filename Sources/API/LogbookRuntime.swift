import CommandHandling
import EventLog
import Foundation
import Projections

/// The service's moving parts, composed once: the log, the command handler on it, and the
/// projection engine that follows it.
public final class LogbookRuntime: Sendable {
    /// The configuration it was built from.
    public let configuration: LogbookConfiguration
    /// The event log.
    public let log: LMDBEventStore
    /// Carries out commands against the log.
    public let commands: CommandHandler<LMDBEventStore>
    /// Keeps the read models up to date and answers reads.
    public let projections: ProjectionEngine<LMDBEventStore>
    /// Secrets, bcrypt and rate limits of the account routes.
    let auth: AuthServices
    /// Wrong join codes by user and by address: guessing a house's code is rate-limited like logins.
    let householdJoins = RateLimiter(
        eventsMax: LogbookConfiguration.loginFailuresMax, window: LogbookConfiguration.loginFailureWindow,
        keysMax: LogbookConfiguration.rateLimitKeysMax)

    /// Opens the data directory and wires everything on it. The server registers
    /// `standardProjections`; the secret key comes from `environment` (`LOGBOOK_SECRET_KEY`) or
    /// the data directory.
    public init(
        configuration: LogbookConfiguration, projections registered: [any Projection] = [],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        self.configuration = configuration
        // First: a bad secret key stops the start before the log is opened.
        auth = try AuthServices(configuration: configuration, environment: environment)
        var options = EventStoreOptions()
        options.unsafeNoSync = configuration.unsafeNoSync
        options.clock = configuration.clock
        log = try LMDBEventStore(dataDirectory: configuration.dataDirectory, options: options)
        commands = CommandHandler(store: log)
        projections = try ProjectionEngine(
            log: log, dataDirectory: configuration.dataDirectory, projections: registered, unsafeNoSync: configuration.unsafeNoSync
        )
    }

    /// Stops appends (after those queued) and ends subscriptions.
    public func close() {
        log.close()
    }
}
