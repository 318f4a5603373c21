/// What the albums read model keeps of an account: its current e-mail, display name and whether
/// that e-mail is verified. A copy of the accounts' own, because a projection reads only its own
/// tables, and a join must see the account as of the same event.
struct AlbumsAccount: Sendable, Equatable {
    /// The normalised current e-mail.
    var email: String
    /// The display name now.
    var displayName: String
    /// Whether the owner verified `email`: only then is the account the address's holder, to
    /// whom its pending invitations are handed (`AlbumsQueries.verifiedHolder`).
    var emailVerified = false
}

extension AlbumsAccount: ReadModelValue {
    func encode(to writer: inout ValueWriter) {
        writer.write(email)
        writer.write(displayName)
        writer.write(emailVerified)
    }

    init(from reader: inout ValueReader) throws(ValueDecodingError) {
        email = try reader.read()
        displayName = try reader.read()
        emailVerified = try reader.read()
    }
}
