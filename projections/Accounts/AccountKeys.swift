/// Keys of the accounts read models, on the shared conventions of `ReadModelKeys`: a list that
/// reads newest first is keyed by an inverted, zero-padded log position.
enum AccountKeys {
    /// Every key of one user (or actor) in a per-user table starts with this. User ids are
    /// server-made UUIDs and actors are user ids or `system`, but nothing in the log promises
    /// that, so the id is escaped.
    static func userPrefix(_ userId: String) -> String {
        ReadModelKeys.component(userId) + "/"
    }

    /// `<user>/<inverted position>`: a user's entries newest first.
    static func userEntry(_ userId: String, position: UInt64) -> String {
        ReadModelKeys.newestFirst(userPrefix(userId), position)
    }
}
