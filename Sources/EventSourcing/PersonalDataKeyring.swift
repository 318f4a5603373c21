import Crypto

/// Where personal data keys come from: one 256-bit data key per subject (user), and the key of
/// the keyed hashes that stand in tags for values that must not appear there (an e-mail).
public protocol PersonalDataKeyring: Sendable {
    /// `subject`'s data key; a new one (stored first) when it has none and `create`; nil when
    /// the subject was erased, or has no key and `create` is false.
    func dataKey(of subject: String, create: Bool) throws -> SymmetricKey?
    /// A keyed hash (HMAC-SHA256, hex) of `value` for `purpose`: equal values give equal tags,
    /// and the tag tells nothing about the value to anyone without the server's secret.
    func blindTag(_ purpose: String, _ value: String) -> String
    /// `stored` opened for a query that shows it (`PersonalDataSeal.open`): nil once the subject
    /// is erased. A keyring may keep what it opened, for the next reader of the same value,
    /// as long as it forgets it when it erases the subject; a build, which opens each value
    /// once, calls `PersonalDataSeal.open` instead.
    func openForReading(_ stored: String, subject: String) throws -> String?
    /// How many subjects this keyring knows erased, without a round trip to its storage: a count
    /// that only grows, with every erasure made or found here. A reader that keeps values it
    /// opened forgets them when the count has moved (as `openForReading` forgets at the erasure);
    /// nil for a keyring that cannot tell, whose opened values nobody keeps.
    var knownErasures: Int? { get }
}

extension PersonalDataKeyring {
    /// Opens `stored` every time: a keyring with no place to keep what it opened.
    public func openForReading(_ stored: String, subject: String) throws -> String? {
        try PersonalDataSeal.open(stored, subject: subject, keyring: self)
    }

    /// Without a place that counts its erasures: nothing opened with it is kept.
    public var knownErasures: Int? { nil }
}
