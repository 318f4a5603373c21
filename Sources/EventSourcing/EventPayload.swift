import Foundation

/// One case of a domain's event enum, as its payload type: the payload names its stored type
/// and wraps itself in the enum. A domain then writes one switch (case → payload) and gets the
/// type name, the JSON encoding and the decoding table from here (`CataloguedEvent`), instead of
/// a switch per concern that every new event type must be added to.
public protocol EventPayload<Event>: Codable, Sendable, Equatable {
    /// The domain's event enum.
    associatedtype Event: DomainEvent
    /// The stored type name, `domain.pastTenseVerb`.
    static var typeName: String { get }
    /// This payload as its domain's event.
    var event: Event { get }
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
    /// The stored type name.
    public var typeName: String { Self.typeName }

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

/// A domain's decoding table: stored type name → payload type. Built once per domain from the
/// list of its payload types; a type name listed twice is a programming error.
///
/// Searched name by name rather than hashed: a domain has at most a few dozen types, a name of
/// another length is passed over without comparing bytes (`==` alone compares the shared prefix,
/// `household.`, of every name before the lengths), and the payload type is called through its
/// metatype with no closure to copy out of a table: 0.7% of a quiz rebuild's samples, where a
/// dictionary of closures took 3.5% and the hand-written switches this replaced 1.3%.
public struct EventPayloadCatalogue<Event: DomainEvent>: Sendable {
    @usableFromInline let names: [String]
    @usableFromInline let payloads: [any EventPayload<Event>.Type]

    /// The table of `payloads`.
    public init(_ payloads: [any EventPayload<Event>.Type]) {
        let names = payloads.map { $0.typeName }
        for name in names {
            precondition(name.hasPrefix(Event.domain + "."), "\(name) is not of \(Event.domain)")
        }
        precondition(Set(names).count == names.count, "a type name is listed twice in \(names)")
        self.names = names
        self.payloads = payloads
    }

    /// Every stored type name of the domain, in the order the payloads were listed (a boundary
    /// over all of them is then the same value every time).
    public var typeNames: [String] { names }

    /// The event stored as `typeName` with `data`, sealed fields opened with `keyring`, or nil
    /// when the type is another domain's. Inlinable, so that it is specialized for each domain:
    /// generic, it looks up the payloads' existential metatype at every call.
    @inlinable public func decode(typeName: String, data: Data, opening keyring: (any PersonalDataKeyring)?) throws -> Event? {
        let length = typeName.utf8.count
        guard let index = names.firstIndex(where: { $0.utf8.count == length && $0 == typeName }) else { return nil }
        return try payloads[index].decodeEvent(from: data, opening: keyring)
    }

    /// As `decode`, with every payload's personal fields as the log stores them, not opened.
    @inlinable public func decodeAsStored(typeName: String, data: Data) throws -> Event? {
        let length = typeName.utf8.count
        guard let index = names.firstIndex(where: { $0.utf8.count == length && $0 == typeName }) else { return nil }
        return try payloads[index].decodeEventAsStored(from: data)
    }
}

/// A domain event enum whose every case wraps one `EventPayload`. The domain lists its payload
/// types once (`catalogue`) and writes one switch (`eventPayload`); the stored type name, the
/// JSON and the decoding by type name follow from those two for every domain alike.
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

    /// The payload as JSON (sorted keys, RFC 3339 dates), personal fields as they are.
    public func encodeData() throws -> Data { try eventPayload.encodeData() }

    /// The payload as JSON, personal fields sealed under `keyring`.
    public func encodeData(sealing keyring: any PersonalDataKeyring) throws -> Data { try eventPayload.encodeData(sealing: keyring) }

    /// The event stored as `typeName`, sealed fields opened with `keyring`, or nil for another
    /// domain's type. Every type is at schema version 1 so far; a version 2 would be upcast here,
    /// keyed on `schemaVersion`.
    public static func decode(typeName: String, schemaVersion: UInt16, data: Data, opening keyring: (any PersonalDataKeyring)?) throws -> Self? {
        try catalogue.decode(typeName: typeName, data: data, opening: keyring)
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
        try Event.catalogue.decodeAsStored(typeName: typeName, data: data).map { EventAsStored(event: $0) }
    }
}
