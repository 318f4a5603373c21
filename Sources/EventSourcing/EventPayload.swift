import Foundation

/// One case of a domain's event enum, as its payload type: the payload names its stored type
/// and wraps itself in the enum. A domain then writes one switch (case → payload) and gets the
/// type name, the JSON encoding and the decoding table from here, instead of a switch per
/// concern that every new event type must be added to (four domains wrote those by hand).
public protocol EventPayload<Event>: Codable, Sendable, Equatable {
    /// The domain's event enum.
    associatedtype Event: DomainEvent
    /// The stored type name, `domain.pastTenseVerb`.
    static var typeName: String { get }
    /// This payload as its domain's event.
    var event: Event { get }
}

extension EventPayload {
    /// The stored type name.
    public var typeName: String { Self.typeName }

    /// The payload's JSON, personal fields sealed (`EventJSON.encode`).
    public func encodeData() throws -> Data { try EventJSON.encode(self) }

    /// The payload decoded from `data` and wrapped as its event.
    static func decodeEvent(from data: Data) throws -> Event {
        try EventJSON.decode(Self.self, from: data).event
    }
}

/// A domain's decoding table: stored type name → payload type. Built once per domain from the
/// list of its payload types; a type name listed twice is a programming error.
public struct EventPayloadCatalogue<Event: DomainEvent>: Sendable {
    private let decoders: [String: @Sendable (Data) throws -> Event]

    /// The table of `payloads`.
    public init(_ payloads: [any EventPayload<Event>.Type]) {
        var decoders: [String: @Sendable (Data) throws -> Event] = [:]
        for payload in payloads {
            precondition(decoders[payload.typeName] == nil, "\(payload.typeName) is listed twice")
            decoders[payload.typeName] = Self.decoder(of: payload)
        }
        self.decoders = decoders
    }

    private static func decoder<P: EventPayload>(of payload: P.Type) -> @Sendable (Data) throws -> Event where P.Event == Event {
        { data in try P.decodeEvent(from: data) }
    }

    /// Every stored type name of the domain.
    public var typeNames: Set<String> { Set(decoders.keys) }

    /// The event stored as `typeName` with `data`, or nil when the type is another domain's.
    public func decode(typeName: String, data: Data) throws -> Event? {
        guard let decode = decoders[typeName] else { return nil }
        return try decode(data)
    }
}
