import Foundation

/// The one step between deciding and appending that handles personal data (ADR 0015): a decider
/// returns plain events (personal fields declared by `PersonalData`, personal tags by
/// `DomainEvent.personalTags`), and the sealer gives the tags and data the log stores, with those
/// fields sealed under their subjects' keys and those tags as keyed hashes. It also keys the
/// personal tags of a boundary before the log is asked for it ("is this e-mail taken?"), so the
/// decision reads the same events its append is conditioned on.
///
/// Reading is the other step: decoding opens sealed fields with the keyring it is given
/// (`DecodableDomainEvent.decode(typeName:schemaVersion:data:opening:)`), the sealer's own for a
/// command handler, the projection engine's for read models and queries.
public struct EventSealer: Sendable {
    /// The keys personal data is sealed under and tags are hashed with; nil for pure code, tests
    /// and plain logs, whose events are stored as decided.
    public let keyring: (any PersonalDataKeyring)?

    /// A sealer with `keyring`; with none, events are stored as decided.
    public init(keyring: (any PersonalDataKeyring)?) {
        self.keyring = keyring
    }

    /// Stores events as decided: personal fields and tags plain, as events written before ADR 0004.
    public static var plain: EventSealer { EventSealer(keyring: nil) }

    /// `event`'s tags as the log stores them: each plain tag of a kind `E` declares personal, keyed.
    public func tags<E: DomainEvent>(of event: E) -> [String] {
        let kinds = E.personalTags
        guard let keyring, !kinds.isEmpty else { return event.tags }
        return event.tags.map { PersonalTag.keyed($0, kinds: kinds, with: keyring) }
    }

    /// `event`'s data as the log stores it: JSON with its personal fields sealed.
    public func data<E: DomainEvent>(of event: E) throws -> Data {
        guard let keyring else { return try event.encodeData() }
        return try event.encodeData(sealing: keyring)
    }

    /// `boundary` as the log is asked for it: an item that names a plain personal tag of `E` is
    /// joined by the same item with those tags keyed. The plain item stays: events written before
    /// keyed tags carry the plain tag, and a boundary is never stored, so naming it leaks nothing.
    public func boundary<E: DomainEvent>(_ boundary: Boundary, of events: E.Type) -> Boundary {
        let kinds = E.personalTags
        guard let keyring, !kinds.isEmpty else { return boundary }
        var keyed: [Boundary.Item] = []
        for item in boundary.items {
            let tags = item.tags.map { PersonalTag.keyed($0, kinds: kinds, with: keyring) }
            if tags != item.tags { keyed.append(Boundary.Item(types: item.types, tags: tags)) }
        }
        return boundary.union(Boundary(keyed))
    }

    /// `value`'s name of kind `tag` as the log stores it, for an edge that must name what the
    /// sealing step stored (the subject of an invitation to the address being erased); nil
    /// without a keyring, where pure code's own name stands.
    public func keyed(_ tag: PersonalTag, _ value: String) -> String? {
        keyring.map { tag.keyed(value, with: $0) }
    }
}
