import Foundation

/// An event of one domain as the log stores it: a type name, a schema version, the stream it
/// belongs to, tags for consistency boundaries, and JSON data.
///
/// A domain's events are one enum whose cases each wrap an `EventPayload`; `CataloguedEvent`
/// gives such an enum its type name, schema version, `encodeData` and `decode`. Decoding gets the
/// stored schema version so that old shapes can be upcast on read: events are never rewritten.
public protocol DomainEvent: DecodableDomainEvent, Equatable {
    /// The stored type name, `domain.pastTenseVerb` (`household.taskCompleted`).
    var typeName: String { get }
    /// The schema version of this event's data as written now (a `CataloguedEvent`'s is its
    /// payload's registered version).
    var schemaVersion: UInt16 { get }
    /// The stream the event belongs to, `category-id` (`house-0193…`).
    var streamID: String { get }
    /// Tags naming what the event is about (`house:0193…`, `user:…`), for boundaries and reads;
    /// those of a kind `personalTags` names, plain (the sealing step keys them).
    var tags: [String] { get }
    /// The kinds of tag that name personal values (an e-mail), which `EventSealer` stores keyed.
    static var personalTags: [PersonalTag] { get }
    /// The event's data as JSON, personal fields as they are.
    func encodeData() throws -> Data
    /// The event's data as JSON, personal fields sealed under `keyring`: `EventSealer` calls it.
    func encodeData(sealing keyring: any PersonalDataKeyring) throws -> Data
}

/// What reading a domain's stored events takes: the domain's name and how a record becomes a
/// value. Every `DomainEvent` is one. A projection may also read a domain through a type of its
/// own that decodes only what it stores (`WorkplaceProjectionInput` takes a review as its ids),
/// so that a build does not decode, or open the sealed fields of, what it never uses.
public protocol DecodableDomainEvent: Sendable {
    /// The domain: what every stored type name of this type starts with, up to its first dot
    /// (`household` of `household.taskCompleted`). Projections name the domains they read by
    /// it, and the projection engine hands a projection only those domains' events.
    static var domain: String { get }
    /// The event stored as `typeName`/`schemaVersion` with `data`, its sealed fields opened with
    /// `keyring`; nil when the type is not one of this domain's (a boundary may match other
    /// domains' events, which a decider ignores).
    static func decode(typeName: String, schemaVersion: UInt16, data: Data, opening keyring: (any PersonalDataKeyring)?) throws -> Self?
}

extension DecodableDomainEvent {
    /// The event stored as `typeName`/`schemaVersion` with `data`, for pure code and its tests:
    /// plain fields read as they are, a sealed one is refused (`PersonalDataError.noKeyring`).
    public static func decode(typeName: String, schemaVersion: UInt16, data: Data) throws -> Self? {
        try decode(typeName: typeName, schemaVersion: schemaVersion, data: data, opening: nil)
    }
}

extension DomainEvent {
    /// None unless an event says otherwise.
    public static var personalTags: [PersonalTag] { [] }

    /// The data as it is: an event that holds no personal data.
    public func encodeData(sealing keyring: any PersonalDataKeyring) throws -> Data { try encodeData() }
}

/// JSON as events store it: sorted keys so the same event always has the same bytes, dates as
/// RFC 3339 with fractional seconds in UTC.
public enum EventJSON {
    /// `2026-11-21T20:30:00.250Z`: UTC, with milliseconds.
    public static let rfc3339 = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)

    /// Encodes an event payload; a `PersonalData` payload with its personal fields sealed under
    /// `keyring` (`EventSealer`).
    public static func encode<T: Encodable>(_ value: T, sealing keyring: any PersonalDataKeyring) throws -> Data {
        if let personal = value as? any PersonalData {
            return try encode(personal.sealingPersonalFields(with: keyring))
        }
        return try encode(value)
    }

    /// Encodes an event payload as it is: personal fields plain (pure code, plain logs).
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339Date.format(date) ?? date.formatted(rfc3339))
        }
        return try encoder.encode(value)
    }

    /// Decodes an event payload: through `EventJSONDecoder` when it handles the JSON, else
    /// (and for every error's wording) through Foundation.
    /// A `PersonalData` payload comes with its sealed fields opened with `keyring` (their
    /// placeholders once the subject is erased); plain ones, written before sealing, are read as
    /// they are. Without a keyring a sealed field is refused (`PersonalDataError.noKeyring`).
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data, opening keyring: (any PersonalDataKeyring)? = nil) throws -> T {
        try opened(decodePlain(type, from: data) { data throws(EventJSONDecoder.Unsupported) in try EventJSONDecoder.decode(type, from: data) }, data, keyring)
    }

    /// `decode` for a payload known to read itself from the nodes (the events most of a log is
    /// made of): the same result, without the conformance check and casts the generic path makes
    /// for every payload (3% of a rebuild's samples). The body reads as the generic one's; here
    /// `EventJSONDecoder.decode` resolves to its `NodeDecodable` overload.
    public static func decode<T: NodeDecodable>(_ type: T.Type, from data: Data, opening keyring: (any PersonalDataKeyring)? = nil) throws -> T {
        try opened(decodePlain(type, from: data) { data throws(EventJSONDecoder.Unsupported) in try EventJSONDecoder.decode(type, from: data) }, data, keyring)
    }

    /// `decode` for a payload known to hold personal data and to read itself from the nodes: its
    /// fields opened through its own type, where the generic path boxes the payload as `any
    /// PersonalData` and casts it back (two copies of every field and two dynamic casts per
    /// event: a fifth of opening a household completion's one sealed name).
    public static func decode<T: NodeDecodable & PersonalData>(
        _ type: T.Type, from data: Data, opening keyring: (any PersonalDataKeyring)? = nil
    ) throws -> T {
        let value = try decodePlain(type, from: data) { data throws(EventJSONDecoder.Unsupported) in try EventJSONDecoder.decode(type, from: data) }
        return mayHoldSealedText(data) ? try value.openingPersonalFields(with: keyring) : value
    }

    /// A payload with its personal fields as the log stores them (sealed, or plain if written
    /// before sealing), not opened: for a read model that stores them so and opens them when
    /// it is read (ADR 0009), which no build then has to do. Otherwise as `decode`.
    public static func decodeAsStored<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decodePlain(type, from: data) { data throws(EventJSONDecoder.Unsupported) in try EventJSONDecoder.decode(type, from: data) }
    }

    /// `decodeAsStored` for a payload known to read itself from the nodes. The body reads as the
    /// generic one's; here `EventJSONDecoder.decode` resolves to its `NodeDecodable` overload.
    public static func decodeAsStored<T: NodeDecodable>(_ type: T.Type, from data: Data) throws -> T {
        try decodePlain(type, from: data) { data throws(EventJSONDecoder.Unsupported) in try EventJSONDecoder.decode(type, from: data) }
    }

    /// `value`, decoded from `data`, with its sealed fields opened with `keyring` if it may hold any.
    private static func opened<T: Decodable>(_ value: T, _ data: Data, _ keyring: (any PersonalDataKeyring)?) throws -> T {
        if mayHoldSealedText(data), let personal = value as? any PersonalData {
            return try personal.openingPersonalFields(with: keyring) as! T
        }
        return value
    }

    /// False when no string of the JSON `data` can start with `PersonalDataSeal.prefix`: the
    /// prefix's bytes are nowhere in it, and no `\u` escape could spell them. Opening such a
    /// payload changes nothing (plain text is read as it is), and skipping it spares a dynamic
    /// cast and the fields' closures for every event written before sealing, or without a keyring.
    static func mayHoldSealedText(_ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return false }
            let count = bytes.count
            // The prefix is looked for by its `v`, which text holds far less often than its `s`
            // (which was every few bytes of a review's answers: 3% of a workplace rebuild).
            var offset = sealedAnchor
            while offset < count {
                guard let found = memchr(base + offset, Int32(sealedPrefix[sealedAnchor]), count - offset) else { break }
                let at = base.distance(to: UnsafeRawPointer(found))
                let start = at - sealedAnchor  // never negative: the search starts at `sealedAnchor`
                if start + sealedPrefix.count <= count, memcmp(base + start, sealedPrefix, sealedPrefix.count) == 0 { return true }
                offset = at + 1
            }
            offset = 0
            while offset < count {
                guard let found = memchr(base + offset, Int32(UInt8(ascii: "\\")), count - offset) else { return false }
                let at = base.distance(to: UnsafeRawPointer(found))
                if at + 1 < count, bytes[at + 1] == UInt8(ascii: "u") { return true }
                offset = at + 2  // an escape is two bytes: the second of `\\` starts nothing
            }
            return false
        }
    }

    private static let sealedPrefix = Array(PersonalDataSeal.prefix.utf8)
    /// Where in `sealedPrefix` its `v` is.
    private static let sealedAnchor = sealedPrefix.firstIndex(of: UInt8(ascii: "v"))!

    /// `fast`'s result, or Foundation's when `fast` does not handle the JSON.
    private static func decodePlain<T: Decodable>(
        _ type: T.Type, from data: Data, fast: (Data) throws(EventJSONDecoder.Unsupported) -> T
    ) throws -> T {
        do {
            return try fast(data)
        } catch {
            if fastPathOnly { throw error }
            return try foundationDecode(type, from: data)
        }
    }

    /// Set by tests to prove that a payload takes the fast path: `decode` then throws
    /// `EventJSONDecoder.Unsupported` instead of asking Foundation. Read only on the slow path.
    ///
    /// A task-local, not a parameter, because it is a test's instrument on a path no request
    /// chooses: as a parameter it would ride through every decoding requirement of every domain
    /// (`DecodableDomainEvent.decode`, the catalogue, `EventPayload.decodeEvent`) to reach the
    /// one line that reads it. Package access, so nothing outside the package can set it.
    @TaskLocal package static var fastPathOnly = false

    /// Decodes an event payload with Foundation's decoder: the reference `EventJSONDecoder`
    /// must agree with.
    static func foundationDecode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            if let date = RFC3339Date.parse(text) { return date }  // the shape `encode` writes
            if let date = try? Date(text, strategy: rfc3339) { return date }
            return try Date(text, strategy: .iso8601)  // without fractional seconds
        }
        return try decoder.decode(type, from: data)
    }
}
