import Foundation
@testable import EventLog

/// A log in a fresh temporary data directory, removed by `remove()`.
struct TestLog {
    let directory: String
    let store: LMDBEventStore

    /// Opens a store; `durable: false` skips fsync where durability is not what a test checks.
    init(durable: Bool = false, configure: (inout EventStoreOptions) -> Void = { _ in }) throws {
        directory = NSTemporaryDirectory() + "eventlog-tests-" + UUID().uuidString
        var options = EventStoreOptions()
        options.unsafeNoSync = !durable
        configure(&options)
        store = try LMDBEventStore(dataDirectory: directory, options: options)
    }

    /// Closes the store and deletes its directory.
    func remove() {
        store.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Reopens the same directory (after `store.close()`).
    func reopen(configure: (inout EventStoreOptions) -> Void = { _ in }) throws -> LMDBEventStore {
        var options = EventStoreOptions()
        options.unsafeNoSync = true
        configure(&options)
        return try LMDBEventStore(dataDirectory: directory, options: options)
    }
}

/// A small event for `streamID`.
func event(_ streamID: String, _ type: String = "test.happened", tags: [String] = [], _ json: String = #"{"n":1}"#) -> ProposedEvent {
    ProposedEvent(streamID: streamID, type: type, tags: tags, data: Data(json.utf8))
}

/// An append of `events` by actor `tester`.
func request(
    _ events: [ProposedEvent], expect: [String: ExpectedVersion] = [:], condition: AppendCondition? = nil,
    commandID: UUID = UUID()
) -> AppendRequest {
    AppendRequest(events: events, expectedVersions: expect, condition: condition,
                  metadata: AppendMetadata(commandID: commandID, actor: "tester"))
}

extension LMDBEventStore {
    /// Every event in the log, oldest first.
    func everything() throws -> [RecordedEvent] {
        var all: [RecordedEvent] = []
        while true {
            let page = try readAll(from: UInt64(all.count + 1), limit: options.limits.readPageEventsMax)
            if page.isEmpty { return all }
            all += page
        }
    }
}
