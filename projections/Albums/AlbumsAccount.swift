/// What the albums read model keeps of an account to join member addresses to it: its current
/// e-mail and display name. A copy of the accounts' own, because a projection reads only its
/// own tables, and a join must see the account as of the same event.
struct AlbumsAccount: Sendable, Equatable {
    /// The normalised current e-mail.
    var email: String
    /// The display name now.
    var displayName: String
}

extension AlbumsAccount: ReadModelValue {
    func encode(to writer: inout ValueWriter) {
        writer.write(email)
        writer.write(displayName)
    }

    init(from reader: inout ValueReader) throws(ValueDecodingError) {
        email = try reader.read()
        displayName = try reader.read()
    }
}
