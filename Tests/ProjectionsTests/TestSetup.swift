import EventLog
import EventSourcing
import Foundation
@testable import Projections

/// A log and read models in one temporary data directory.
struct TestSetup {
    let directory = NSTemporaryDirectory() + "projection-tests-" + UUID().uuidString
    let log: LMDBEventStore

    init() throws {
        var options = EventStoreOptions()
        options.unsafeNoSync = true
        log = try LMDBEventStore(dataDirectory: directory, options: options)
    }

    func engine(_ projections: [any Projection], initialMapSizeBytes: Int? = nil) throws -> ProjectionEngine<LMDBEventStore> {
        try ProjectionEngine(log: log, dataDirectory: directory, projections: projections, sync: .unsafeNever,
                             initialMapSizeBytes: initialMapSizeBytes)
    }

    func append(_ count: Int, type: String = "test.happened") async throws {
        for start in stride(from: 0, to: count, by: 500) {
            let events = (start..<min(count, start + 500)).map { _ in
                ProposedEvent(streamID: "test-1", type: type, data: Data("{}".utf8))
            }
            _ = try await log.append(AppendRequest(events: events, metadata: AppendMetadata(actor: "tester")))
        }
    }

    func remove() {
        log.close()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

func count(_ engine: ProjectionEngine<LMDBEventStore>, _ type: String = "test.happened", as projection: TypeCounts = TypeCounts()) throws -> Int {
    try engine.read(projection) { try $0.value(Int.self, at: type, in: "counts") } ?? 0
}

/// Appends `events` by `actor` as one request and waits until `engine` has projected them;
/// returns the last position. What the fixtures do after their deciders have decided: the events
/// sealed with the engine's keyring, as a server's command handler seals them with the same one.
@discardableResult
func appendProjected<E: DomainEvent>(
    _ events: [E], by actor: String, to log: LMDBEventStore, _ engine: ProjectionEngine<LMDBEventStore>
) async throws -> UInt64 {
    let sealer = EventSealer(keyring: engine.personalData)
    let proposed = try events.map { event in
        ProposedEvent(
            streamID: event.streamID, type: event.typeName, schemaVersion: event.schemaVersion, tags: sealer.tags(of: event),
            data: try sealer.data(of: event))
    }
    let result = try await log.append(AppendRequest(events: proposed, metadata: AppendMetadata(actor: actor)))
    try await engine.waitUntilProjected(result.lastPosition)
    return result.lastPosition
}

/// Events in a rebuild's first transaction, where the rebuild tests pause it half-way.
let firstBatch = ProjectionEngine<LMDBEventStore>.batchEventsMax
