/// Keys of the accounts read models. LMDB orders keys bytewise, so a list that reads newest
/// first is keyed by an inverted, zero-padded log position.
enum AccountKeys {
    /// Digits in `invertedPosition`: enough for `UInt64.max`.
    static let invertedPositionDigits = 20

    /// `UInt64.max - position`, zero-padded, so that a later position sorts first.
    static func invertedPosition(_ position: UInt64) -> String {
        let digits = String(UInt64.max - position)
        return String(repeating: "0", count: invertedPositionDigits - digits.count) + digits
    }

    /// Every key of one user (or actor) in a per-user table starts with this.
    static func userPrefix(_ userId: String) -> String {
        component(userId) + "/"
    }

    /// `<user>/<inverted position>`: a user's entries newest first.
    static func userEntry(_ userId: String, position: UInt64) -> String {
        userPrefix(userId) + invertedPosition(position)
    }

    /// An id as one key component. User ids are server-made UUIDs and actors are user ids or
    /// `system`, but nothing in the log promises that; escaping `%` and `/` keeps one user's
    /// prefix from matching another's keys.
    static func component(_ id: String) -> String {
        guard id.contains(where: { $0 == "/" || $0 == "%" }) else { return id }
        return id.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
    }
}
