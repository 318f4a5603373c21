import Accounts

/// The hash as its text. Decoding goes through `init?(bcrypt:)`, so the read model never hands
/// out a value the accounts module could not have made.
extension PasswordHash: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(bcrypt)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        guard let hash = PasswordHash(bcrypt: try reader.read()) else { throw .invalid("password hash") }
        self = hash
    }
}
