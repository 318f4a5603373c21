/// An event payload that holds personal data: it declares which of its fields are whose; the
/// sealing step (`EventSealer`) seals them before the append, and decoding opens them with the
/// keyring it is given (ADR 0004). A domain writes no crypto and holds no key; a later app gets
/// crypto-shredding by declaring its fields the same way.
///
/// Sealed fields stay JSON strings (`sealed:v1:…`), so event data stays the JSON the log's
/// record format promises. Once a subject's key is erased, its fields decode to the placeholder
/// each declaration names; the rest of the payload (ids, counts, times) decodes as it was.
public protocol PersonalData: Codable {
    /// The payload's personal fields, each with its subject (the user whose data it is). A
    /// `static let`: it is read for every event sealed or opened.
    static var personalFields: [PersonalField<Self>] { get }
}

/// One personal field of a payload `Payload`: where it is, whose it is, and what it reads as
/// once its subject is erased.
///
/// Unchecked sendable so that a payload's list is a `static let`, made once rather than at every
/// event decoded (an array and its closures per event). It holds only closures over key paths
/// and placeholders, immutable values, which the factories below are the only makers of.
public struct PersonalField<Payload>: @unchecked Sendable {
    let seal: (inout Payload, any PersonalDataKeyring) throws -> Void
    let open: (inout Payload, (any PersonalDataKeyring)?) throws -> Void

    /// The text at `field`, personal data of the user `subject` names; `erased` after erasure
    /// ("Deleted user" for a name, empty for an e-mail or a free text).
    public static func text(
        _ field: WritableKeyPath<Payload, String>, of subject: @escaping (Payload) -> String, erased: String
    ) -> PersonalField {
        PersonalField(
            seal: { payload, keyring in
                payload[keyPath: field] = try PersonalDataSeal.seal(payload[keyPath: field], subject: subject(payload), keyring: keyring)
            },
            open: { payload, keyring in
                payload[keyPath: field] = try PersonalDataSeal.open(payload[keyPath: field], subject: subject(payload), keyring: keyring) ?? erased
            })
    }

    /// The optional text at `field`: absent stays absent; after erasure it reads as `erased`.
    public static func optionalText(
        _ field: WritableKeyPath<Payload, String?>, of subject: @escaping (Payload) -> String, erased: String? = nil
    ) -> PersonalField {
        PersonalField(
            seal: { payload, keyring in
                guard let text = payload[keyPath: field] else { return }
                payload[keyPath: field] = try PersonalDataSeal.seal(text, subject: subject(payload), keyring: keyring)
            },
            open: { payload, keyring in
                guard let stored = payload[keyPath: field] else { return }
                payload[keyPath: field] = try PersonalDataSeal.open(stored, subject: subject(payload), keyring: keyring) ?? erased
            })
    }

    /// The optional text at `field` of every element of the array at `array`, personal data of
    /// the user `subject` names from the payload: for elements that do not say whose they are
    /// (a review's text answers are the reviewed employee's). Absent stays absent; after
    /// erasure each present one reads as `erased`.
    public static func eachOptionalText<Element>(
        _ array: WritableKeyPath<Payload, [Element]>, _ field: WritableKeyPath<Element, String?>,
        of subject: @escaping (Payload) -> String, erased: String
    ) -> PersonalField {
        PersonalField(
            seal: { payload, keyring in
                let subject = subject(payload)
                for index in payload[keyPath: array].indices {
                    guard let text = payload[keyPath: array][index][keyPath: field] else { continue }
                    payload[keyPath: array][index][keyPath: field] = try PersonalDataSeal.seal(text, subject: subject, keyring: keyring)
                }
            },
            open: { payload, keyring in
                let subject = subject(payload)
                for index in payload[keyPath: array].indices {
                    guard let stored = payload[keyPath: array][index][keyPath: field] else { continue }
                    payload[keyPath: array][index][keyPath: field] =
                        try PersonalDataSeal.open(stored, subject: subject, keyring: keyring) ?? erased
                }
            })
    }

    /// The name at `field`, made of the personal value `value` gives and stored in the clear (the
    /// subject an invitation's address is sealed under): pure code writes a name of its own, the
    /// sealing step writes `tag`'s keyed name of the value, so the stored name tells nothing of
    /// it. Declare it before the fields sealed under it, which are then sealed under the stored
    /// name. Read as it is stored.
    public static func keyedName(
        _ field: WritableKeyPath<Payload, String>, _ tag: PersonalTag, of value: @escaping (Payload) -> String
    ) -> PersonalField {
        PersonalField(
            seal: { payload, keyring in payload[keyPath: field] = tag.keyed(value(payload), with: keyring) },
            open: { _, _ in })
    }

    /// The tags at `field` (the tags an erasure releases): each plain tag of one of `kinds` stored
    /// keyed, as the event's own tags are (`EventSealer.tags(of:)`). Read as they are stored.
    public static func tags(_ field: WritableKeyPath<Payload, [String]>, _ kinds: [PersonalTag]) -> PersonalField {
        PersonalField(
            seal: { payload, keyring in payload[keyPath: field] = payload[keyPath: field].map { PersonalTag.keyed($0, kinds: kinds, with: keyring) } },
            open: { _, _ in })
    }

    /// Every element's personal fields in the array at `field` (members of a house, say).
    public static func each<Element: PersonalData>(_ field: WritableKeyPath<Payload, [Element]>) -> PersonalField {
        PersonalField(
            seal: { payload, keyring in
                payload[keyPath: field] = try payload[keyPath: field].map { try $0.sealingPersonalFields(with: keyring) }
            },
            open: { payload, keyring in
                payload[keyPath: field] = try payload[keyPath: field].map { try $0.openingPersonalFields(with: keyring) }
            })
    }
}

extension PersonalData {
    /// This payload with every personal field sealed under its subject's key.
    public func sealingPersonalFields(with keyring: any PersonalDataKeyring) throws -> Self {
        var copy = self
        for field in Self.personalFields { try field.seal(&copy, keyring) }
        return copy
    }

    /// This payload with every sealed field opened, or its placeholder when the subject is
    /// erased. Plain fields (events written before ADR 0004) are read as they are.
    public func openingPersonalFields(with keyring: (any PersonalDataKeyring)?) throws -> Self {
        var copy = self
        for field in Self.personalFields { try field.open(&copy, keyring) }
        return copy
    }
}
