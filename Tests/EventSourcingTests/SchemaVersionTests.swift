import EventSourcing
import Foundation
import Testing

/// A domain whose one type was stored in two shapes: `gong.struck` at version 1 had no
/// loudness, version 2 has one. Both payload types are registered, each at its version; the
/// old one's `event` is the old shape brought up to the new, as an upcaster would write it.
private enum Gong: CataloguedEvent {
    case struck(Struck)
    case hung(Hung)

    static let domain = "gong"
    static let catalogue = EventPayloadCatalogue<Gong>([Struck.self, StruckV1.self, Hung.self])
    var eventPayload: any EventPayload<Gong> {
        switch self {
        case .struck(let p): p
        case .hung(let p): p
        }
    }

    /// `gong.struck` as written now.
    struct Struck: GongPayload {
        static let typeName = "gong.struck"
        static let schemaVersion: UInt16 = 2
        var event: Gong { .struck(self) }
        var times: Int
        var loud: Bool
    }

    /// `gong.struck` as version 1 wrote it: read as a soft stroke.
    struct StruckV1: GongPayload {
        static let typeName = "gong.struck"
        var event: Gong { .struck(.init(times: times, loud: false)) }
        var times: Int
    }

    /// At the default version, 1.
    struct Hung: GongPayload {
        static let typeName = "gong.hung"
        var event: Gong { .hung(self) }
        var hall: String
    }
}

private protocol GongPayload: EventPayload<Gong> {}

extension GongPayload {
    var streamID: String { "gong-1" }
    var tags: [String] { ["gong:1"] }
}

@Suite("Schema versions: registered with each payload type, decoded by type name and version")
struct SchemaVersionTests {
    @Test func anEventIsStoredAtItsPayloadsRegisteredVersion() {
        // given a type registered at version 2 and one that registers no version
        let struck = Gong.struck(.init(times: 3, loud: true))
        let hung = Gong.hung(.init(hall: "east"))
        // then each event says its payload's version
        #expect(struck.schemaVersion == 2)
        #expect(hung.schemaVersion == 1, "the default")
    }

    @Test func aTypeRegisteredAtTwoVersionsIsListedOnce() {
        #expect(Gong.typeNames == ["gong.struck", "gong.hung"])
    }

    @Test func eachVersionIsReadWithTheTypeRegisteredAtIt() throws {
        // given the same type name stored at version 2 and at version 1
        let now = Data(#"{"loud":true,"times":3}"#.utf8)
        let old = Data(#"{"times":2}"#.utf8)
        // when each is decoded at the version it was stored at
        let decodedNow = try Gong.decode(typeName: "gong.struck", schemaVersion: 2, data: now)
        let decodedOld = try Gong.decode(typeName: "gong.struck", schemaVersion: 1, data: old)
        // then version 2 reads as it is and version 1 through its own type, brought up to now
        #expect(decodedNow == .struck(.init(times: 3, loud: true)))
        #expect(decodedOld == .struck(.init(times: 2, loud: false)))
    }

    @Test func anEventReadsBackAtTheVersionItWasStoredAt() throws {
        let event = Gong.struck(.init(times: 1, loud: false))
        #expect(try Gong.decode(typeName: event.typeName, schemaVersion: event.schemaVersion, data: event.encodeData()) == event)
    }

    @Test func aKnownTypeAtAnUnregisteredVersionThrowsNamingTypeAndVersion() throws {
        // given a record of a registered type at a version nobody registered (a newer server's)
        let data = Data(#"{"loud":true,"times":3,"echo":4}"#.utf8)
        // when it is decoded, opened or as stored
        // then the refusal names the type, the version and the versions registered
        let expected = EventCatalogueError.unregisteredVersion(typeName: "gong.struck", schemaVersion: 3, registered: [1, 2])
        #expect(throws: expected) { try Gong.decode(typeName: "gong.struck", schemaVersion: 3, data: data) }
        #expect(throws: expected) { try EventAsStored<Gong>.decode(typeName: "gong.struck", schemaVersion: 3, data: data) }
        #expect(throws: EventCatalogueError.unregisteredVersion(typeName: "gong.hung", schemaVersion: 2, registered: [1])) {
            try Gong.decode(typeName: "gong.hung", schemaVersion: 2, data: Data(#"{"hall":"east"}"#.utf8))
        }
        #expect(expected.description == "gong.struck is registered at schema version 1, 2, not 3")
    }

    @Test func aVersionIsNotReadAsAnother() {
        // given version 1's bytes, which version 2's type cannot read
        let old = Data(#"{"times":2}"#.utf8)
        // when they are said to be version 2, then they are refused, not upcast
        #expect(throws: DecodingError.self) { try Gong.decode(typeName: "gong.struck", schemaVersion: 2, data: old) }
    }

    @Test func anotherDomainsTypeIsStillNoneOfOursAtAnyVersion() throws {
        #expect(try Gong.decode(typeName: "bell.rung", schemaVersion: 7, data: Data("{}".utf8)) == nil)
        #expect(try Gong.decode(typeName: "gong.rung", schemaVersion: 1, data: Data("{}".utf8)) == nil)
    }
}
