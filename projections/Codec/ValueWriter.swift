/// Builds a read-model value's bytes: integers as LEB128 varints (zig-zag for signed ones, so
/// small negatives stay short), strings and arrays length-first, doubles and dates as their
/// 8-byte IEEE bit pattern (exact), optionals behind a 0/1 flag.
public struct ValueWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]

    /// An empty writer; `capacity` is a hint for the value's size in bytes.
    public init(capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Forgets what was written, keeping the storage, for writing the next value into it.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Writes `value` through its own encoding: `writer.write(task.name)`, `writer.write(view)`.
    public mutating func write<T: ReadModelValue>(_ value: T) {
        value.encode(to: &self)
    }

    /// An unsigned varint: 7 bits a byte, low bits first, the high bit set on all but the last.
    public mutating func writeVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// A signed integer, zig-zag encoded (0, -1, 1, -2 … → 0, 1, 2, 3 …) then as a varint.
    public mutating func writeSigned(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// Eight bytes, little-endian.
    public mutating func writeFixed64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// A length, then the raw bytes.
    public mutating func writeBytes(_ raw: some Collection<UInt8>) {
        writeVarint(UInt64(raw.count))
        bytes.append(contentsOf: raw)
    }

    /// The raw bytes, without their length: for `ReadModelRows`, which keeps keys and values
    /// side by side and knows where each ends.
    mutating func appendRaw(_ raw: some Collection<UInt8>) {
        bytes.append(contentsOf: raw)
    }
}
