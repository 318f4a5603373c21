import BlobStore
import CommandHandling
import Crypto
import EventLog
import EventSourcing
import Foundation
import Logging
import PostgresEventLog
import Projections
import Synchronization

/// The service's moving parts, composed once: the log, the command handler on it, and the
/// projection engine that follows it.
public final class LogbookRuntime: Sendable {
    /// The configuration it was built from.
    public let configuration: LogbookConfiguration
    /// The event log.
    public let log: EventLogBackend
    /// Carries out commands against the log.
    public let commands: CommandHandler<EventLogBackend>
    /// Keeps the read models up to date and answers reads.
    public let projections: ProjectionEngine<EventLogBackend>
    /// Queries over the accounts read models.
    let accounts: AccountQueries<EventLogBackend>
    /// Queries over the household read models.
    let household: HouseholdQueries<EventLogBackend>
    /// Queries over the quiz read models.
    let quiz: QuizQueries<EventLogBackend>
    /// Queries over the neighbourhood read models.
    let neighbourhood: NeighbourhoodQueries<EventLogBackend>
    /// Queries over the workplace read models.
    let workplace: WorkplaceQueries<EventLogBackend>
    /// Queries over the albums read models.
    let albums: AlbumsQueries<EventLogBackend>
    /// Queries over the blob references read model: who uploaded an image, what shows it.
    let blobReferences: BlobQueries<EventLogBackend>
    /// The image files beside the log (`data/blobs`, content-addressed).
    public let blobs: BlobStore
    /// Secrets, bcrypt and rate limits of the account routes.
    let auth: AuthServices
    /// The per-user keys personal data in events is sealed under (ADR 0004): in `data/keys`, or
    /// beside a PostgreSQL log in its table, shared by every server on it (ADR 0005).
    public let personalData: PersonalDataKeyStore
    /// The read models as of past log positions, for the operators' as-of routes.
    let asOfCopies: AsOfCopies
    /// Read models still holding an erased user's data until rebuilt and compacted.
    let scrub: ReadModelScrub
    /// Carries out every erasure in the log on this server: its keys, its read models.
    let erasures: ErasureFollower
    /// Wrong join codes by user and by address: guessing a house's code is slowed down, and a
    /// right code always joins.
    let householdJoins = JoinThrottle()

    /// This server's metrics (`GET /metrics`): a registry of its own, not the process-global one.
    public let metrics: LogbookMetrics

    /// The live streams' one reader of the log and their fan-out (`GET /v1/live`).
    let live: LiveHub

    /// Whether `close` has not been called: the log accepts appends.
    private let logOpen = Atomic(true)

    /// Opens the log the configuration names (a PostgreSQL shared with other servers, or else
    /// the data directory's own) and wires everything on it; see `init(configuration:log:…)`.
    public static func open(
        configuration: LogbookConfiguration, environment: [String: String] = ProcessInfo.processInfo.environment,
        readModels: [any Projection] = LogbookProjections.all
    ) async throws -> LogbookRuntime {
        let metrics = LogbookMetrics()
        let log = try await EventLogBackend.open(
            eventStore: configuration.eventStore, dataDirectory: configuration.dataDirectory,
            options: logOptions(configuration, metrics: metrics)
        )
        do {
            // Before the key seals or moves anything: a key other than the log's stops the start.
            try await AuthSecretCheck.verify(log: log, dataDirectory: configuration.dataDirectory, environment: environment)
            return try LogbookRuntime(configuration: configuration, log: log, metrics: metrics, environment: environment, readModels: readModels)
        } catch {
            log.closeNow()
            throw error
        }
    }

    /// The data directory's own log, opened and wired as `open` does (tests, tools).
    public convenience init(
        configuration: LogbookConfiguration, environment: [String: String] = ProcessInfo.processInfo.environment,
        readModels: [any Projection] = LogbookProjections.all
    ) throws {
        precondition(configuration.eventStore == nil, "a PostgreSQL log is opened with LogbookRuntime.open")
        let metrics = LogbookMetrics()
        let log = EventLogBackend.lmdb(try LMDBEventStore(dataDirectory: configuration.dataDirectory, options: Self.logOptions(configuration, metrics: metrics)))
        try self.init(configuration: configuration, log: log, metrics: metrics, environment: environment, readModels: readModels)
    }

    private static func logOptions(_ configuration: LogbookConfiguration, metrics: LogbookMetrics) -> EventStoreOptions {
        var options = EventStoreOptions()
        options.unsafeNoSync = configuration.unsafeNoSync
        options.writeAhead = configuration.writeAhead
        if let eventsMax = configuration.indexTailEventsMax { options.indexTail.eventsMax = eventsMax }
        options.clock = configuration.clock
        options.commitObserver = { metrics.recordGroupCommit($0) }
        return options
    }

    /// Wires everything on `log`, with every read model of `readModels` (`LogbookProjections.all`:
    /// the routes need them all; tests may put a projection of the same name in one's place); the
    /// read models, keys and image files live in the data directory whatever the log's backend;
    /// the secret key comes from `environment` (`LOGBOOK_SECRET_KEY`) or the data directory.
    init(
        configuration: LogbookConfiguration, log: EventLogBackend, metrics: LogbookMetrics, environment: [String: String],
        readModels: [any Projection]
    ) throws {
        self.configuration = configuration
        // First: a bad secret key stops the start before anything is written.
        auth = try AuthServices(configuration: configuration, environment: environment)
        // After that check, which refuses a secret.key others may read rather than hide that it was.
        PrivateDataDirectory.tightenOnce(below: configuration.dataDirectory)
        personalData = try Self.personalDataKeys(log: log, dataDirectory: configuration.dataDirectory, secret: auth.secrets.personalDataKey)
        let scrub = ReadModelScrub(dataDirectory: configuration.dataDirectory)
        self.scrub = scrub
        self.metrics = metrics
        blobs = try BlobStore(
            directory: (configuration.dataDirectory as NSString).appendingPathComponent(BlobStore.directoryName),
            syncs: !configuration.unsafeNoSync)
        self.log = log
        commands = CommandHandler(store: log, sealer: EventSealer(keyring: personalData))
        projections = try ProjectionEngine(
            log: log, dataDirectory: configuration.dataDirectory, projections: readModels,
            sync: configuration.unsafeNoSync ? .unsafeNever : .untilFinished, personalData: personalData
        )
        // Built once: their initialisers check the registration, which no request should repeat.
        accounts = AccountQueries(engine: projections)
        household = HouseholdQueries(engine: projections)
        quiz = QuizQueries(engine: projections)
        neighbourhood = NeighbourhoodQueries(engine: projections)
        workplace = WorkplaceQueries(engine: projections)
        albums = AlbumsQueries(engine: projections)
        blobReferences = BlobQueries(engine: projections)
        asOfCopies = AsOfCopies(log: log, personalData: personalData)
        let engine = projections
        erasures = ErasureFollower(dataDirectory: configuration.dataDirectory, keyring: personalData, scrub: scrub) {
            scrub.start(engine)
        }
        projections.addObserver(erasures)
        live = LiveHub(log: log, projected: projections.projected, settings: LiveSettings(environment: environment)) {
            engine.runnerStatus
        }
    }

    /// The keys personal data is sealed under: in the data directory beside its own log; beside
    /// a PostgreSQL log, in its table, where this data directory's keys of an earlier start move.
    private static func personalDataKeys(log: EventLogBackend, dataDirectory: String, secret: SymmetricKey) throws -> PersonalDataKeyStore {
        let local = try PersonalDataKeyFiles(dataDirectory: dataDirectory)
        guard case .postgres(let store) = log else { return PersonalDataKeyStore(storage: local, secret: secret) }
        let shared = PersonalDataKeyStore(storage: PostgresKeyTable(location: store.location), secret: secret)
        _ = try shared.moveEntries(from: local)
        return shared
    }

    /// Whether the log accepts appends (`close` has not been called).
    public var isLogOpen: Bool { logOpen.load(ordering: .acquiring) }

    /// Stops appends (after those queued) and ends subscriptions; after an erasure, also
    /// compacts the read models (see `ReadModelScrub`). Call it once the server has stopped.
    public func close() {
        logOpen.store(false, ordering: .releasing)
        log.closeNow()
        finishReadModels()
    }

    /// `close`, after the appends in flight have been written: the server's own shutdown. (For
    /// LMDB the two are the same; a PostgreSQL log's `close` fails a batch still in flight, which
    /// its callers may then retry.)
    public func shutDown() async {
        logOpen.store(false, ordering: .releasing)
        await log.close()
        finishReadModels()
    }

    /// Syncs the read models (they commit without it while the server runs), then compacts them
    /// if an erasure asked for it. Not synced, they are rebuilt at the next start after a machine
    /// restart, which loses nothing: the log holds everything they do.
    private func finishReadModels() {
        try? projections.finishUnsyncedWrites()
        scrub.compactIfPending(projections)
    }

    /// Rebuilds every read model (in the background, one after the other), so none keeps an
    /// erased user's data, and compacts the read models at `close`.
    func scrubReadModels() {
        scrub.start(projections)
    }

    /// Before the projection runner starts: carries out the erasures a crash (or a failed key
    /// storage) left undone, and rebuilds the read models once caught up if a scrub is owed.
    func finishInterruptedErasures(logger: Logger) async {
        do {
            try await erasures.recover(log: log, readModelsReach: try await projections.highestCheckpoint())
        } catch {
            // The handled position stays where it was: the next start tries again.
            logger.error("could not finish the erasures in the log", metadata: ["error": "\(error)"])
        }
        Task { await scrub.finishPending(self) }
    }

    /// Waits until no scrub of the read models is running (tests, operators).
    public func readModelsScrubbed() async {
        await scrub.idle()
    }
}
