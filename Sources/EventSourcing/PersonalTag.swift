/// A kind of tag that names a personal value (`email:<e-mail>`), which the log's tag index must
/// not hold (ADR 0004). Pure code writes such a tag plain, `<prefix><value>`, as events written
/// before keyed tags carry it; the sealing step (`EventSealer`) stores `<prefix><keyed hash of the
/// value>` instead, and lets a boundary naming the tag see both forms. A name stored in the clear
/// that must tell nothing of the value it is made of (the subject an invitation's address is
/// sealed under) is keyed the same way (`PersonalField.keyedName`).
///
/// A domain declares its kinds on its events (`DomainEvent.personalTags`), so a decider names
/// the value and never holds the key.
public struct PersonalTag: Sendable, Hashable {
    /// What every tag of the kind starts with (`email:`), plain or keyed.
    public let prefix: String
    /// What the keyed hash is for (`PersonalDataKeyring.blindTag`): equal values of different
    /// kinds hash differently.
    public let purpose: String

    /// Tags `<prefix><value>`, keyed for `purpose`.
    public init(prefix: String, purpose: String) {
        precondition(!prefix.isEmpty, "a personal tag is told apart by its prefix")
        self.prefix = prefix
        self.purpose = purpose
    }

    /// The tag of `value` as pure code writes it.
    public func plain(_ value: String) -> String { prefix + value }

    /// The tag of `value` as the log stores it: `prefix` and the keyed hash of `value`.
    public func keyed(_ value: String, with keyring: any PersonalDataKeyring) -> String {
        prefix + keyring.blindTag(purpose, value)
    }

    /// `tag` keyed when it is the plain tag of one of `kinds`; any other tag as it is.
    static func keyed(_ tag: String, kinds: [PersonalTag], with keyring: any PersonalDataKeyring) -> String {
        guard let kind = kinds.first(where: { tag.hasPrefix($0.prefix) }) else { return tag }
        return kind.keyed(String(tag.dropFirst(kind.prefix.count)), with: keyring)
    }
}
