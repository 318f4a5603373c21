import Foundation

/// One case of a domain's event enum, as its payload type: the payload registers its stored
/// type name and schema version, says its event's stream and tags, and wraps itself in the
/// enum. A domain then writes one switch (case → payload) and gets the type name, the version,
/// the stream and tags, the JSON encoding and the decoding table from here (`CataloguedEvent`),
/// instead of a switch per concern that every new event type must be added to. A domain's
/// payloads share a protocol of their own that says its stream and tags once from what they all
/// hold (`HouseholdPayload`: the house); a payload that adds a tag says so in its own type.
///
/// A payload declares a public memberwise init only when code outside its module builds it
/// (logbook-bench's albums log, which predates invitations being claimed and so is not decided;
/// a read model's codec), since release builds cannot `@testable import`; the others are built
/// with the compiler's internal one, by their decider and by tests. The other bench logs and the
/// admin's demo are decided from commands.
public protocol EventPayload<Event>: Codable, Sendable, Equatable {
    /// The domain's event enum.
    associatedtype Event: DomainEvent
    /// The stored type name, `domain.pastTenseVerb`.
    static var typeName: String { get }
    /// The schema version of the JSON this type reads and writes. When a type's shape changes,
    /// the new payload type takes the next version and the old one stays registered at its own,
    /// its `event` the old shape brought up to the new.
    static var schemaVersion: UInt16 { get }
    /// This payload as its domain's event.
    var event: Event { get }
    /// The stream its event belongs to (`DomainEvent.streamID`).
    var streamID: String { get }
    /// Its event's tags (`DomainEvent.tags`).
    var tags: [String] { get }
    /// The payload decoded from `data` and wrapped as its event. A requirement, not only an
    /// extension method, so that each payload's witness is compiled for its own type: the
    /// catalogue's table then calls decoding specialized for the payload (a `NodeDecodable` one
    /// straight through `init(nodes:)`), not generic code that checks its conformances per event.
    static func decodeEvent(from data: Data, opening keyring: (any PersonalDataKeyring)?) throws -> Event
    /// As `decodeEvent`, with the personal fields as the log stores them, not opened
    /// (`EventJSON.decodeAsStored`, `EventAsStored`). A requirement for the same reason.
    static func decodeEventAsStored(from data: Data) throws -> Event
}

extension EventPayload {
    /// Version 1: every type's first shape.
    public static var schemaVersion: UInt16 { 1 }

    /// The stored type name.
    public var typeName: String { Self.typeName }

    /// The schema version it is stored at.
    public var schemaVersion: UInt16 { Self.schemaVersion }

    /// This payload as `any EventPayload`, for a domain whose payloads share a protocol of their
    /// own (`any HouseholdPayload`), which the compiler does not convert to this one directly.
    public var asEventPayload: any EventPayload<Event> { self }

    /// The payload's JSON, personal fields as they are (`EventJSON.encode`).
    public func encodeData() throws -> Data { try EventJSON.encode(self) }

    /// The payload's JSON, personal fields sealed under `keyring`.
    public func encodeData(sealing keyring: any PersonalDataKeyring) throws -> Data { try EventJSON.encode(self, sealing: keyring) }

    /// The payload decoded from `data`, sealed fields opened with `keyring`, and wrapped as its event.
    public static func decodeEvent(from data: Data, opening keyring: (any PersonalDataKeyring)?) throws -> Event {
        try EventJSON.decode(Self.self, from: data, opening: keyring).event
    }

    /// The payload decoded from `data`, nothing opened, and wrapped as its event.
    public static func decodeEventAsStored(from data: Data) throws -> Event {
        try EventJSON.decodeAsStored(Self.self, from: data).event
    }
}

extension EventPayload where Self: NodeDecodable {
    /// The payload read from the nodes of `data` and wrapped as its event. The body reads as the
    /// default's; here `EventJSON.decode` resolves to its `NodeDecodable` overload.
    public static func decodeEvent(from data: Data, opening keyring: (any PersonalDataKeyring)?) throws -> Event {
        try EventJSON.decode(Self.self, from: data, opening: keyring).event
    }

    /// The same for `decodeEventAsStored`.
    public static func decodeEventAsStored(from data: Data) throws -> Event {
        try EventJSON.decodeAsStored(Self.self, from: data).event
    }
}

extension EventPayload where Self: NodeDecodable & PersonalData {
    /// The same again, so that `EventJSON.decode` resolves to the overload that opens the sealed
    /// fields through this type rather than through `any PersonalData`.
    public static func decodeEvent(from data: Data, opening keyring: (any PersonalDataKeyring)?) throws -> Event {
        try EventJSON.decode(Self.self, from: data, opening: keyring).event
    }
}

/// A domain event enum whose every case wraps one `EventPayload`. The domain lists its payload
/// types once (`catalogue`) and writes one switch (`eventPayload`); the stored type name and
/// schema version, the stream and tags, the JSON and the decoding by name and version follow
/// from those two for every domain alike.
public protocol CataloguedEvent: DomainEvent {
    /// Every payload type of the domain.
    static var catalogue: EventPayloadCatalogue<Self> { get }
    /// The case's payload.
    var eventPayload: any EventPayload<Self> { get }
}

extension CataloguedEvent {
    /// Every stored type name of the domain, `<domain>.<pastTense>`, in the catalogue's order.
    public static var typeNames: [String] { catalogue.typeNames }

    /// The payload's stored type name.
    public var typeName: String { eventPayload.typeName }

    /// The payload's schema version.
    public var schemaVersion: UInt16 { eventPayload.schemaVersion }

    /// The payload's stream.
    public var streamID: String { eventPayload.streamID }

    /// The payload's tags.
    public var tags: [String] { eventPayload.tags }

    /// The payload as JSON (sorted keys, RFC 3339 dates), personal fields as they are.
    public func encodeData() throws -> Data { try eventPayload.encodeData() }

    /// The payload as JSON, personal fields sealed under `keyring`.
    public func encodeData(sealing keyring: any PersonalDataKeyring) throws -> Data { try eventPayload.encodeData(sealing: keyring) }

    /// The event stored as `typeName` at `schemaVersion`, sealed fields opened with `keyring`, or
    /// nil for another domain's type; `EventCatalogueError.unregisteredVersion` for one of ours
    /// at a version the catalogue does not register.
    public static func decode(typeName: String, schemaVersion: UInt16, data: Data, opening keyring: (any PersonalDataKeyring)?) throws -> Self? {
        try catalogue.decode(typeName: typeName, schemaVersion: schemaVersion, data: data, opening: keyring)
    }
}

/// A domain's events with every personal field as the log stores it (sealed, or plain if written
/// before sealing), never opened: what a projection reads when its read models keep personal
/// data sealed and their queries open it (ADR 0009). A build then opens nothing, and an erased
/// user's data reads erased from the moment their key is destroyed, with no rebuild.
///
/// A type of its own, not a flag, so that the engine decodes it apart from the opened events
/// other projections of the same domain read, and a projection cannot take one for the other.
public struct EventAsStored<Event: CataloguedEvent>: DecodableDomainEvent {
    /// The event, its personal fields as stored.
    public var event: Event

    public static var domain: String { Event.domain }

    /// `keyring` is not used: nothing is opened.
    public static func decode(typeName: String, schemaVersion: UInt16, data: Data, opening keyring: (any PersonalDataKeyring)?) throws -> EventAsStored? {
        try Event.catalogue.decodeAsStored(typeName: typeName, schemaVersion: schemaVersion, data: data).map { EventAsStored(event: $0) }
    }
}
