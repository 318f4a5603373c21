import EventSourcing
import Foundation
import Testing

/// A two-case domain, one payload read from the nodes and one through Codable: what every
/// domain's enum gets from `CataloguedEvent` once it lists its payloads and writes its switch,
/// its payloads sharing the stream and tags through a protocol of their own.
private enum Bell: CataloguedEvent {
    case rung(Rung)
    case silenced(Silenced)

    static let domain = "bell"
    static let catalogue = EventPayloadCatalogue<Bell>([Rung.self, Silenced.self])
    var eventPayload: any EventPayload<Bell> {
        switch self {
        case .rung(let p): p
        case .silenced(let p): p
        }
    }

    struct Rung: BellPayload, NodeDecodable {
        static let typeName = "bell.rung"
        var event: Bell { .rung(self) }
        var times: Int
        /// Set only by `init(nodes:)`, so a test sees which way the payload was read; not stored,
        /// not compared.
        var readFromNodes = false

        private enum CodingKeys: String, CodingKey { case times }

        init(times: Int) { self.times = times }
        init(nodes object: NodeObject) throws {
            times = try object.value("times")
            readFromNodes = true
        }

        static func == (lhs: Rung, rhs: Rung) -> Bool { lhs.times == rhs.times }
    }

    struct Silenced: BellPayload {
        static let typeName = "bell.silenced"
        var event: Bell { .silenced(self) }
        var at: Date
    }
}

private protocol BellPayload: EventPayload<Bell> {}

extension BellPayload {
    var streamID: String { "bell-1" }
    var tags: [String] { ["bell:1"] }
}

@Suite struct CataloguedEventTests {
    @Test func theStreamAndTagsAreThePayloads() {
        #expect(Bell.rung(.init(times: 1)).streamID == "bell-1")
        #expect(Bell.silenced(.init(at: Date(timeIntervalSince1970: 0))).tags == ["bell:1"])
    }

    @Test func typeNamesAreTheListedPayloadsInOrder() {
        #expect(Bell.typeNames == ["bell.rung", "bell.silenced"])
        #expect(Bell.rung(.init(times: 1)).typeName == "bell.rung")
        #expect(Bell.silenced(.init(at: Date(timeIntervalSince1970: 0))).typeName == "bell.silenced")
    }

    @Test func everyCaseRoundTripsThroughItsTypeName() throws {
        let events: [Bell] = [.rung(.init(times: 3)), .silenced(.init(at: Date(timeIntervalSince1970: 1_800_000_000.25)))]
        for event in events {
            let data = try event.encodeData()
            let decoded = try Bell.decode(typeName: event.typeName, schemaVersion: event.schemaVersion, data: data)
            #expect(decoded == event)
        }
    }

    @Test func theNodePayloadIsReadFromTheNodes() throws {
        let data = try Bell.rung(.init(times: 2)).encodeData()
        let decoded = try EventJSON.$fastPathOnly.withValue(true) { try Bell.decode(typeName: "bell.rung", schemaVersion: 1, data: data) }
        guard case .rung(let rung)? = decoded else { Issue.record("not a rung: \(String(describing: decoded))"); return }
        #expect(rung.times == 2 && rung.readFromNodes, "through init(nodes:), not Codable or Foundation")
    }

    @Test func anotherDomainsTypeIsNotDecoded() throws {
        let data = try Bell.rung(.init(times: 2)).encodeData()
        #expect(try Bell.decode(typeName: "household.taskCompleted", schemaVersion: 1, data: data) == nil)
        #expect(try Bell.decode(typeName: "bell.rungTwice", schemaVersion: 1, data: data) == nil)
    }

    @Test func aPayloadOfTheWrongShapeThrows() {
        #expect(throws: (any Error).self) { try Bell.decode(typeName: "bell.rung", schemaVersion: 1, data: Data(#"{"times":"many"}"#.utf8)) }
    }
}
