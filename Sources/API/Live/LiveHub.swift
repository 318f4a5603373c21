import EventLog
import PostgresEventLog
import Logging
import Projections
import Synchronization

/// The server's one reader of the log for live streams: it follows the projected position
/// (so every event it sends, the read models already include), maps each event to its topics
/// once, and offers it to the streams watching them. A stream's buffer is bounded and the hub
/// never waits on one, so a slow client costs neither the appends nor the other streams.
final class LiveHub: Sendable {
    /// The log read.
    let log: EventLogBackend
    /// The position every read model includes (`ProjectionEngine.projected`).
    let projected: PositionWatch
    /// The runner's status: no stream starts before the read models are open.
    let runnerStatus: @Sendable () -> ProjectionRunnerStatus
    /// Keep-alive, buffer and per-user limits.
    let settings: LiveSettings
    let state = Mutex(State())

    struct State {
        /// The last position offered to the streams: a stream that opens now gets what follows
        /// from the hub, and what came before (after its `Last-Event-ID`) from the log itself.
        var delivered: UInt64 = 0
        var subscriptions: [Int: LiveSubscription] = [:]
        var byKey: [String: Set<Int>] = [:]
        var byUser: [String: Set<Int>] = [:]
        var nextID = 0
        var isShutDown = false
    }

    init(log: EventLogBackend, projected: PositionWatch, settings: LiveSettings,
         runnerStatus: @escaping @Sendable () -> ProjectionRunnerStatus) {
        self.log = log
        self.projected = projected
        self.settings = settings
        self.runnerStatus = runnerStatus
    }

    /// Streams open now (for the "live streams open" gauge).
    var openStreams: Int { state.withLock { $0.subscriptions.count } }

    /// Registers a stream of `userId` on `grants`, resuming after `lastEventID` when given, else
    /// from the position the read models include now. 429 `too_many_streams` over the caller's
    /// limit, 503 while the server starts or stops.
    func subscribe(
        userId: String, grants: [LiveGrant], lastEventID: UInt64?, sessionActive: @escaping @Sendable () -> Bool
    ) throws -> (LiveSubscription, catchUp: ClosedRange<UInt64>?) {
        // Before the runner opens the read models their position is 0: "now" would be the start of the log.
        guard runnerStatus().phase != .starting else { throw Problem.liveUnavailable }
        let now = projected.position
        return try state.withLock { state in
            guard !state.isShutDown else { throw Problem.liveUnavailable }
            let open = state.byUser[userId]?.count ?? 0
            guard open < settings.streamsPerUserMax else { throw Problem.tooManyStreams(settings.streamsPerUserMax) }
            let after = lastEventID ?? now
            let liveAfter = max(after, state.delivered)
            let subscription = LiveSubscription(
                id: state.nextID, userId: userId, grants: grants, liveAfter: liveAfter,
                bufferEventsMax: settings.bufferEventsMax, sessionActive: sessionActive)
            state.nextID += 1
            state.subscriptions[subscription.id] = subscription
            state.byUser[userId, default: []].insert(subscription.id)
            for key in subscription.keys { state.byKey[key, default: []].insert(subscription.id) }
            return (subscription, after < liveAfter ? (after + 1)...liveAfter : nil)
        }
    }

    /// Forgets stream `id` (its client went away, or it ended).
    func remove(_ id: Int) {
        state.withLock { Self.remove(id, from: &$0) }
    }

    static func remove(_ id: Int, from state: inout State) {
        guard let subscription = state.subscriptions.removeValue(forKey: id) else { return }
        for key in subscription.keys {
            state.byKey[key]?.remove(id)
            if state.byKey[key]?.isEmpty == true { state.byKey[key] = nil }
        }
        state.byUser[subscription.userId]?.remove(id)
        if state.byUser[subscription.userId]?.isEmpty == true { state.byUser[subscription.userId] = nil }
    }

    /// Ends every stream (the server is stopping) and refuses new ones.
    func shutDown() {
        let all = state.withLock { state -> [LiveSubscription] in
            state.isShutDown = true
            defer {
                state.subscriptions = [:]
                state.byKey = [:]
                state.byUser = [:]
            }
            return Array(state.subscriptions.values)
        }
        for subscription in all { subscription.finish(.shutdown) }
    }

    /// Sends a keep-alive comment to every stream.
    func keepAlive() {
        let all = state.withLock { Array($0.subscriptions.values) }
        for subscription in all { subscription.offer(.keepAlive) }
    }
}
