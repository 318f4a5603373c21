import EventLog
import Foundation
import LMDB
import Synchronization

/// The LMDB log, with reads that fail on demand: `failingReads` reads of the whole log and
/// `failingWaits` subscription steps throw a storage error (as an I/O error would) before reads
/// work again.
final class FlakyLog: EventStore, Sendable {
    let inner: LMDBEventStore
    /// `readAll` calls still to fail.
    let failingReads = Mutex(0)
    /// Subscription `next` calls still to fail.
    let failingWaits = Mutex(0)

    init(_ inner: LMDBEventStore) {
        self.inner = inner
    }

    static let ioError = EventLogError.storage(.system(errno: EIO))

    /// Takes one failure from `budget`; true when this call should fail.
    static func takeFailure(_ budget: borrowing Mutex<Int>) -> Bool {
        budget.withLock { remaining in
            guard remaining > 0 else { return false }
            remaining -= 1
            return true
        }
    }

    /// A subscription whose steps fail while `failingWaits` lasts.
    struct Subscription: AsyncSequence, Sendable {
        typealias Element = RecordedEvent
        typealias Failure = EventLogError
        let inner: EventSubscription
        let log: FlakyLog

        func makeAsyncIterator() -> Iterator { Iterator(inner: inner.makeAsyncIterator(), log: log) }

        struct Iterator: AsyncIteratorProtocol {
            var inner: EventSubscription.Iterator
            let log: FlakyLog

            mutating func next() async throws(EventLogError) -> RecordedEvent? {
                if FlakyLog.takeFailure(log.failingWaits) { throw FlakyLog.ioError }
                return try await inner.next()
            }
        }
    }

    func append(_ request: AppendRequest) async throws(EventLogError) -> AppendResult {
        try await inner.append(request)
    }

    func readStream(_ streamID: String, from version: UInt64, direction: ReadDirection, limit: Int) async throws(EventLogError) -> [RecordedEvent] {
        try await inner.readStream(streamID, from: version, direction: direction, limit: limit)
    }

    func readAll(from position: UInt64, direction: ReadDirection, limit: Int) async throws(EventLogError) -> [RecordedEvent] {
        if Self.takeFailure(failingReads) { throw Self.ioError }
        return try await inner.readAll(from: position, direction: direction, limit: limit)
    }

    /// A batch is a read of the log like a page: it fails the same way.
    func readBatch(from position: UInt64, limit: Int) async throws(EventLogError) -> [RecordedEvent] {
        if Self.takeFailure(failingReads) { throw Self.ioError }
        return try await inner.readBatch(from: position, limit: limit)
    }

    func events(at positions: [UInt64]) async throws(EventLogError) -> [RecordedEvent] {
        if Self.takeFailure(failingReads) { throw Self.ioError }
        return try await inner.events(at: positions)
    }

    func readCategory(_ category: String, from position: UInt64, direction: ReadDirection, limit: Int) async throws(EventLogError) -> [RecordedEvent] {
        try await inner.readCategory(category, from: position, direction: direction, limit: limit)
    }

    func readTag(_ tag: String, from position: UInt64, direction: ReadDirection, limit: Int) async throws(EventLogError) -> [RecordedEvent] {
        try await inner.readTag(tag, from: position, direction: direction, limit: limit)
    }

    func readType(_ type: String, from position: UInt64, direction: ReadDirection, limit: Int) async throws(EventLogError) -> [RecordedEvent] {
        try await inner.readType(type, from: position, direction: direction, limit: limit)
    }

    func read(matching query: EventQuery, after position: UInt64, limit: Int) async throws(EventLogError) -> QueryResult {
        try await inner.read(matching: query, after: position, limit: limit)
    }

    func appendResult(ofCommand commandID: UUID) async throws(EventLogError) -> AppendResult? {
        try await inner.appendResult(ofCommand: commandID)
    }

    func streamVersion(_ streamID: String) async throws(EventLogError) -> UInt64? {
        try await inner.streamVersion(streamID)
    }

    func headPosition() async throws(EventLogError) -> UInt64 {
        try await inner.headPosition()
    }

    func subscribe(from position: UInt64) -> Subscription {
        Subscription(inner: inner.subscribe(from: position), log: self)
    }
}
