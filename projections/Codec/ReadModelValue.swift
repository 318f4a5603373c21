/// A value a read model stores, in the compact binary form of `ValueWriter` and `ValueReader`.
///
/// Read models are rebuilt from the log, so this form is private to one projection version: a
/// changed layout is a new `Projection.version`, rebuilt beside the served copy, never read by
/// the other version's code. That is why values carry no field names, tags or per-value version:
/// the fields are written and read in one fixed order, which `encode` and `init(from:)` of each
/// type keep side by side. Foundation's JSON took 65–80% of a rebuild; this form is a few
/// byte copies per field (docs/benchmarks.md).
public protocol ReadModelValue {
    /// Appends the value's fields, in order.
    func encode(to writer: inout ValueWriter)
    /// Reads the fields in the order `encode` wrote them.
    init(from reader: inout ValueReader) throws(ValueDecodingError)
}

extension ReadModelValue {
    /// The value's bytes, as stored.
    public func encodedBytes() -> [UInt8] {
        var writer = ValueWriter()
        encode(to: &writer)
        return writer.bytes
    }

    /// The value stored as `bytes`, which must hold exactly one value: trailing bytes mean the
    /// bytes were written by another layout, and are refused rather than half-read.
    public static func decode(from bytes: UnsafeRawBufferPointer) throws(ValueDecodingError) -> Self {
        var reader = ValueReader(bytes)
        let value = try Self(from: &reader)
        guard reader.isAtEnd else { throw .trailingBytes(reader.remaining) }
        return value
    }

    /// The value stored as `bytes`; see `decode(from:)`.
    public static func decode(from bytes: [UInt8]) throws(ValueDecodingError) -> Self {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(ValueDecodingError) in try decode(from: raw) } }
        return try result.get()
    }
}

/// Why stored bytes are not a value of the type asked for.
public enum ValueDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes ended inside a field.
    case truncated
    /// Bytes were left after the value: another layout wrote them.
    case trailingBytes(Int)
    /// A field's bytes are not a value of its type (a varint over 64 bits, a flag not 0 or 1,
    /// an enum tag or raw value the type does not have).
    case invalid(String)

    public var description: String {
        switch self {
        case .truncated: "the value ends early"
        case let .trailingBytes(count): "\(count) bytes after the value"
        case let .invalid(what): "invalid \(what)"
        }
    }
}
