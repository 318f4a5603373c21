import BlobStore
import CommandHandling
import EventLog
import EventSourcing
import Foundation
import Projections
import Synchronization

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
    /// Queries over the accounts read models.
    let accounts: AccountQueries<LMDBEventStore>
    /// Queries over the household read models.
    let household: HouseholdQueries<LMDBEventStore>
    /// Queries over the quiz read models.
    let quiz: QuizQueries<LMDBEventStore>
    /// Queries over the neighbourhood read models.
    let neighbourhood: NeighbourhoodQueries<LMDBEventStore>
    /// Queries over the workplace read models.
    let workplace: WorkplaceQueries<LMDBEventStore>
    /// Queries over the albums read models.
    let albums: AlbumsQueries<LMDBEventStore>
    /// Queries over the blob references read model: who uploaded an image, what shows it.
    let blobReferences: BlobQueries<LMDBEventStore>
    /// The image files beside the log (`data/blobs`, content-addressed).
    public let blobs: BlobStore
    /// Secrets, bcrypt and rate limits of the account routes.
    let auth: AuthServices
    /// The per-user keys personal data in events is sealed under (`data/keys`, ADR 0004).
    public let personalData: PersonalDataKeyStore
    /// The read models as of past log positions, for the operators' as-of routes.
    let asOfCopies: AsOfCopies
    /// Read models still holding an erased user's data until rebuilt and compacted.
    let scrub: ReadModelScrub
    /// Wrong join codes by user and by address: guessing a house's code is rate-limited like logins.
    let householdJoins = RateLimiter(
        eventsMax: LogbookConfiguration.loginFailuresMax, window: LogbookConfiguration.loginFailureWindow,
        keysMax: LogbookConfiguration.rateLimitKeysMax)

    /// This server's metrics (`GET /metrics`): a registry of its own, not the process-global one.
    public let metrics: LogbookMetrics

    /// The live streams' one reader of the log and their fan-out (`GET /v1/live`).
    let live: LiveHub

    /// Whether `close` has not been called: the log accepts appends.
    private let logOpen = Atomic(true)

    /// Opens the data directory and wires everything on it, with every read model of
    /// `readModels` (`LogbookProjections.all`: the routes need them all; tests may put a
    /// projection of the same name in one's place); the secret key comes from `environment`
    /// (`LOGBOOK_SECRET_KEY`) or the data directory.
    public init(
        configuration: LogbookConfiguration, environment: [String: String] = ProcessInfo.processInfo.environment,
        readModels: [any Projection] = LogbookProjections.all
    ) throws {
        self.configuration = configuration
        // First: a bad secret key stops the start before the log is opened.
        auth = try AuthServices(configuration: configuration, environment: environment)
        personalData = try PersonalDataKeyStore(dataDirectory: configuration.dataDirectory, secret: auth.secrets.personalDataKey)
        scrub = ReadModelScrub(dataDirectory: configuration.dataDirectory)
        var options = EventStoreOptions()
        options.unsafeNoSync = configuration.unsafeNoSync
        options.clock = configuration.clock
        let metrics = LogbookMetrics()
        self.metrics = metrics
        options.commitObserver = { metrics.recordGroupCommit($0) }
        blobs = try BlobStore(
            directory: (configuration.dataDirectory as NSString).appendingPathComponent(BlobStore.directoryName),
            syncs: !configuration.unsafeNoSync)
        log = try LMDBEventStore(dataDirectory: configuration.dataDirectory, options: options)
        commands = CommandHandler(store: log)
        projections = try ProjectionEngine(
            log: log, dataDirectory: configuration.dataDirectory, projections: readModels,
            unsafeNoSync: configuration.unsafeNoSync, personalData: personalData
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
        live = LiveHub(log: log, projected: projections.projected, settings: LiveSettings(environment: environment)) {
            engine.runnerStatus
        }
    }

    /// Whether the log accepts appends (`close` has not been called).
    public var isLogOpen: Bool { logOpen.load(ordering: .acquiring) }

    /// Stops appends (after those queued) and ends subscriptions; after an erasure, also
    /// compacts the read models (see `ReadModelScrub`). Call it once the server has stopped.
    public func close() {
        logOpen.store(false, ordering: .releasing)
        log.close()
        scrub.compactIfPending(projections)
    }

    /// Rebuilds every read model (in the background, one after the other), so none keeps an
    /// erased user's data, and compacts the read models at `close`.
    func scrubReadModels() {
        scrub.start(projections, keyring: personalData)
    }

    /// Waits until no scrub of the read models is running (tests, operators).
    public func readModelsScrubbed() async {
        await scrub.idle()
    }
}
