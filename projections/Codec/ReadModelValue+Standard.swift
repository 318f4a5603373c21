import Foundation

extension String: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        var copy = self
        copy.withUTF8 { writer.writeBytes($0) }
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        self = try reader.readBytes { String(decoding: $0, as: UTF8.self) }
    }
}

extension Int: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.writeSigned(Int64(self))
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        self = Int(try reader.readSigned())
    }
}

extension UInt64: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.writeVarint(self)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        self = try reader.readVarint()
    }
}

extension Bool: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.writeVarint(self ? 1 : 0)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        switch try reader.readVarint() {
        case 0: self = false
        case 1: self = true
        default: throw .invalid("flag")
        }
    }
}

extension Double: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.writeFixed64(bitPattern)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        self = Double(bitPattern: try reader.readFixed64())
    }
}

extension Date: ReadModelValue {
    /// Seconds since the reference date as a double: the same bits `Date` holds, so a stored
    /// date compares equal to the one written.
    public func encode(to writer: inout ValueWriter) {
        writer.write(timeIntervalSinceReferenceDate)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        self = Date(timeIntervalSinceReferenceDate: try reader.read())
    }
}

extension UUID: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        withUnsafeBytes(of: uuid) { writer.writeBytes($0) }
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        self = try reader.readBytes { (raw) throws(ValueDecodingError) -> UUID in
            guard raw.count == 16 else { throw .invalid("UUID of \(raw.count) bytes") }
            var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: raw) }
            return UUID(uuid: uuid)
        }
    }
}

extension Optional: ReadModelValue where Wrapped: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        switch self {
        case .none: writer.writeVarint(0)
        case let .some(value):
            writer.writeVarint(1)
            writer.write(value)
        }
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        self = try reader.read(Bool.self) ? .some(try reader.read()) : .none
    }
}

extension Array: ReadModelValue where Element: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.writeVarint(UInt64(count))
        for element in self { writer.write(element) }
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        let count = try reader.readCount()
        self = []
        reserveCapacity(count)
        for _ in 0..<count { append(try reader.read()) }
    }
}

extension ReadModelValue where Self: RawRepresentable, RawValue == String {
    /// A string enum as its raw value; an unknown raw value is refused.
    public func encode(to writer: inout ValueWriter) {
        writer.write(rawValue)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        let raw: String = try reader.read()
        guard let value = Self(rawValue: raw) else { throw .invalid("\(Self.self) \(raw)") }
        self = value
    }
}
