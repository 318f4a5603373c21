import Accounts

/// The token as its base64 text. Decoding goes through `init?(base64:)`, so the read model never
/// hands out a value the accounts module could not have made.
extension SealedToken: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(base64)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        guard let token = SealedToken(base64: try reader.read()) else { throw .invalid("sealed token") }
        self = token
    }
}
