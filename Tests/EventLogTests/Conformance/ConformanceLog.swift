import Foundation
import EventLog
import PostgresEventLog
import TestSupport
import Testing

/// The backends the conformance suite runs on: LMDB always, also with an index tail that every
/// read meets; PostgreSQL when it is installed (a private cluster per test process,
/// `PrivatePostgres`) or when `.ci/run` requires it.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case lmdb
    /// LMDB writing its `streams`, `categories`, `types` and `tags` entries only every third
    /// event and never because the writer is idle (docs/decisions/0008): most logs of a test
    /// end with a tail, and reads cross from the B-trees into it.
    case lmdbIndexTail = "lmdb, index tail"
    case postgres

    static let available: [Backend] =
        PrivatePostgres.isInstalled || PrivatePostgres.isRequired ? [.lmdb, .lmdbIndexTail, .postgres] : [.lmdb, .lmdbIndexTail]

    /// The index tail's settings of `lmdbIndexTail`.
    static func forceIndexTail(_ options: inout EventStoreOptions) {
        options.indexTail.eventsMax = 3
        options.indexTail.flushesWhenIdle = false
    }

    var testDescription: String { rawValue }
}

/// A fresh, empty log of one backend for one test; `remove()` closes and deletes it.
struct ConformanceLog {
    let backend: Backend
    let store: any EventStore
    /// Where it lives: a data directory or a `postgres://` URL.
    let location: String
    private let closing: @Sendable () async -> Void

    static func open(_ backend: Backend, configure: (inout EventStoreOptions) -> Void = { _ in }) async throws -> ConformanceLog {
        var options = EventStoreOptions()
        options.pollIntervalMilliseconds = 50
        switch backend {
        case .lmdb, .lmdbIndexTail:
            let directory = NSTemporaryDirectory() + "conformance-" + UUID().uuidString
            options.unsafeNoSync = true
            if backend == .lmdbIndexTail { Backend.forceIndexTail(&options) }
            configure(&options)
            let store = try LMDBEventStore(dataDirectory: directory, options: options)
            return ConformanceLog(backend: backend, store: store, location: directory) {
                store.close()
                try? FileManager.default.removeItem(atPath: directory)
            }
        case .postgres:
            configure(&options)
            let url = try await PrivatePostgres.newDatabase()
            let store = try await PostgresEventStore.connect(to: PostgresLocation(url: url), options: options)
            return ConformanceLog(backend: backend, store: store, location: url) { await store.close() }
        }
    }

    /// A second store on the same log: another server on one PostgreSQL, or a read-only reader
    /// of an LMDB directory (LMDB has one writer per log).
    func peer(configure: (inout EventStoreOptions) -> Void = { _ in }) async throws -> (store: any EventStore, close: @Sendable () async -> Void) {
        var options = EventStoreOptions()
        options.pollIntervalMilliseconds = 50
        switch backend {
        case .lmdb, .lmdbIndexTail:
            options.readOnly = true
            configure(&options)
            let store = try LMDBEventStore(dataDirectory: location, options: options)
            return (store, { store.close() })
        case .postgres:
            configure(&options)
            let store = try await PostgresEventStore.connect(to: PostgresLocation(url: location), options: options)
            return (store, { await store.close() })
        }
    }

    func remove() async {
        await closing()
    }

    /// Every event in the log, oldest first.
    func everything() async throws -> [RecordedEvent] {
        var all: [RecordedEvent] = []
        while true {
            let page = try await store.readAll(from: UInt64(all.count + 1), direction: .forward, limit: 1_000)
            if page.isEmpty { return all }
            all += page
        }
    }

    /// The store as a server holds it.
    var server: EventLogBackend {
        switch store {
        case let store as LMDBEventStore: .lmdb(store)
        case let store as PostgresEventStore: .postgres(store)
        default: preconditionFailure("unknown backend")
        }
    }

    /// Verifies the whole log with the backend's own check.
    func verify() async throws -> VerifyReport {
        switch store {
        case let store as LMDBEventStore: try store.verify()
        case let store as PostgresEventStore: try await store.verify()
        default: throw EventLogError.invalidArgument(field: "store", reason: "unknown backend")
        }
    }

    /// Transactions committed so far, for the group-commit checks.
    var commitCount: Int {
        switch store {
        case let store as LMDBEventStore: store.commitCount
        case let store as PostgresEventStore: store.commitCount
        default: 0
        }
    }
}

/// Runs `body` with a fresh log of `backend`, removed afterwards even when `body` throws.
func withLog(
    _ backend: Backend, configure: (inout EventStoreOptions) -> Void = { _ in }, _ body: (ConformanceLog) async throws -> Void
) async throws {
    let log = try await ConformanceLog.open(backend, configure: configure)
    do {
        try await body(log)
    } catch {
        await log.remove()
        throw error
    }
    await log.remove()
}

/// The first `count` events of a subscription, or fewer if `seconds` pass first.
func firstEvents<S: AsyncSequence<RecordedEvent, EventLogError> & Sendable>(
    of subscription: S, count: Int, seconds: Int = 20
) async throws -> [RecordedEvent] {
    try await withThrowingTaskGroup(of: [RecordedEvent]?.self) { group in
        group.addTask {
            var events: [RecordedEvent] = []
            for try await event in subscription {
                events.append(event)
                if events.count == count { break }
            }
            return events
        }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        while let result = try await group.next() {
            if let events = result { return events }
            return []
        }
        return []
    }
}
