/// Reads a value's bytes in the order `ValueWriter` wrote them, straight from the memory LMDB
/// maps: nothing is copied but the fields themselves.
///
/// It holds a pointer into a transaction's snapshot, so it lives only inside one decode.
public struct ValueReader {
    private let base: UnsafeRawBufferPointer
    private var offset = 0

    /// A reader at the start of `bytes`.
    public init(_ bytes: UnsafeRawBufferPointer) {
        base = bytes
    }

    /// Whether every byte was read.
    public var isAtEnd: Bool { offset == base.count }
    /// Bytes not read yet.
    public var remaining: Int { base.count - offset }

    /// Reads a value of the type the context asks for: `name = try reader.read()`.
    public mutating func read<T: ReadModelValue>(_ type: T.Type = T.self) throws(ValueDecodingError) -> T {
        try T(from: &self)
    }

    /// An unsigned varint of at most 64 bits.
    public mutating func readVarint() throws(ValueDecodingError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < base.count else { throw .truncated }
            let byte = base[offset]
            offset += 1
            guard shift < 64, shift < 63 || byte <= 1 else { throw .invalid("varint over 64 bits") }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    /// A zig-zag signed integer.
    public mutating func readSigned() throws(ValueDecodingError) -> Int64 {
        let raw = try readVarint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    /// Eight bytes, little-endian.
    public mutating func readFixed64() throws(ValueDecodingError) -> UInt64 {
        guard remaining >= 8 else { throw .truncated }
        let value = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
        return UInt64(littleEndian: value)
    }

    /// A length-prefixed run of bytes, handed to `body` without copying.
    public mutating func readBytes<T>(_ body: (UnsafeRawBufferPointer) throws(ValueDecodingError) -> T) throws(ValueDecodingError) -> T {
        let length = try readVarint()
        guard length <= UInt64(remaining) else { throw .truncated }
        let slice = UnsafeRawBufferPointer(rebasing: base[offset..<(offset + Int(length))])
        offset += Int(length)
        return try body(slice)
    }

    /// A count of elements that follow, each at least one byte: a count larger than the bytes
    /// left is damage, refused before anything is allocated for it.
    public mutating func readCount() throws(ValueDecodingError) -> Int {
        let count = try readVarint()
        guard count <= UInt64(remaining) else { throw .truncated }
        return Int(count)
    }
}
