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

    /// Opens the data directory and wires everything on it.
    public init(configuration: LogbookConfiguration, projections registered: [any Projection] = []) throws {
        self.configuration = configuration
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
