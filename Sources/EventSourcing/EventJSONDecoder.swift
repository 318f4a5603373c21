import Foundation

/// Decodes event payloads from JSON faster than Foundation's `JSONDecoder`, which was most of
/// the cost of folding the log into read models (issue 9: 70% of a rebuild after read-model
/// values went binary).
///
/// It scans the document once into `JSONNodes` and decodes `Decodable` types straight from them,
/// with no per-value boxing and no coding-path bookkeeping. It handles the JSON `EventJSON`
/// writes; anything else (a number `Int` cannot hold exactly, a type Foundation treats
/// specially, a missing key, a wrong type, odd JSON) makes it give up with `Unsupported`, and
/// `EventJSON.decode` asks Foundation instead. Giving up is sticky: a payload whose own
/// `init(from:)` caught one failure and tried another way is decoded again by Foundation, so
/// every result this decoder returns is the one Foundation would return. A `NodeDecodable`
/// payload (the events most of a log is made of) skips the containers and reads itself from the
/// nodes; should it give up, it is decoded as any other.
public enum EventJSONDecoder {
    /// This decoder does not handle the document (or the type); Foundation's will.
    public struct Unsupported: Error {}

    /// `T` from the JSON `data`, or `Unsupported`.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(Unsupported) -> T {
        // One conformance check per payload: a `NodeDecodable` one reads itself from the nodes.
        // Should it give up, the Codable path gets the payload before Foundation does.
        if let readable = type as? any NodeDecodable.Type, let value = try? decodeFromNodes(readable, from: data) { return value as! T }
        return try decodeThroughCodable(type, from: data)
    }

    /// `decode` for a type known to be `NodeDecodable`, without the conformance check.
    public static func decode<T: NodeDecodable>(_ type: T.Type, from data: Data) throws(Unsupported) -> T {
        // `do`/`catch`, not `try?`: this runs unspecialized for every payload, and `T?` would
        // look up `Optional<T>`'s metadata on each call.
        do {
            return try decodeFromNodes(type, from: data)
        } catch {
            return try decodeThroughCodable(type, from: data)
        }
    }

    /// `T` from the JSON `data` through its `init(from:)`, even when it is `NodeDecodable`.
    static func decodeThroughCodable<T: Decodable>(_ type: T.Type, from data: Data) throws(Unsupported) -> T {
        let result: Result<T, Unsupported> = data.withUnsafeBytes { bytes in
            guard let nodes = try? JSONNodes(bytes) else { return .failure(Unsupported()) }
            let decoder = NodeDecoder(nodes)
            guard let value = try? decoder.value(T.self, at: 0), !decoder.gaveUp else { return .failure(Unsupported()) }
            return .success(value)
        }
        return try result.get()
    }

    /// `T` from the JSON `data` through its `init(nodes:)` alone (`NodeDecodingAgreement` compares
    /// it with Foundation's result).
    public static func decodeFromNodes<T: NodeDecodable>(_ type: T.Type, from data: Data) throws(Unsupported) -> T {
        // Thrown through rather than wrapped in a `Result<T, _>` or a `T?`: this runs
        // unspecialized for every payload, and either wrapper's metadata was looked up (under a
        // lock) on each call, 4% of a `quiz.games` rebuild's samples.
        do {
            return try data.withUnsafeBytes { bytes in
                try T.read(NodeValue(decoder: NodeDecoder(JSONNodes(bytes, keepingNested: T.readsNestedContainers)), index: 0))
            }
        } catch {
            throw Unsupported()
        }
    }
}

/// The `Decoder` over scanned nodes. One instance serves the whole document: decoding a nested
/// value points `current` at it and puts it back afterwards, as Codable decodes strictly nested.
@usableFromInline final class NodeDecoder: Decoder {
    let document: JSONNodes
    var current = 0
    /// Set by the first `Unsupported`: the whole decode is then Foundation's.
    private(set) var gaveUp = false

    @usableFromInline var codingPath: [any CodingKey] { [] }
    @usableFromInline var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ document: JSONNodes) {
        self.document = document
    }

    @usableFromInline func unsupported() -> EventJSONDecoder.Unsupported {
        gaveUp = true
        return EventJSONDecoder.Unsupported()
    }

    func node(_ index: Int) -> JSONNodes.Node { document.nodes[index] }

    /// Whether the node at `index` is an object.
    @usableFromInline func isObject(_ index: Int) -> Bool { node(index).kind == .object }

    /// The elements of the array at `index`; `Unsupported` when it is no array.
    @usableFromInline func elementCount(_ index: Int) throws -> Int {
        let node = node(index)
        guard node.kind == .array else { throw unsupported() }
        return node.count
    }

    /// The index of the node after the subtree at `index`.
    @usableFromInline func next(after index: Int) -> Int {
        let node = document.nodes[index]
        return node.kind == .object || node.kind == .array ? node.end : index + 1
    }

    @usableFromInline func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard node(current).kind == .object else { throw unsupported() }
        return KeyedDecodingContainer(NodeKeyedContainer<Key>(decoder: self, object: current))
    }

    @usableFromInline func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard node(current).kind == .array else { throw unsupported() }
        return NodeUnkeyedContainer(decoder: self, array: current)
    }

    @usableFromInline func singleValueContainer() throws -> any SingleValueDecodingContainer {
        NodeSingleValueContainer(decoder: self, index: current)
    }

    // MARK: Values

    /// The value at node `index` as `T`: scalars here, anything else through its `init(from:)`.
    /// One conformance check tells a scalar from a structure: a chain of a dozen type casts per
    /// nested value was a measurable share of decoding events with arrays of small structs.
    func value<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
        // The common scalars by identity first (a pointer comparison each, even unspecialized).
        if type == String.self { return try string(at: index) as! T }
        if type == Int.self { return try integer(Int.self, at: index) as! T }
        if type == Date.self { return try date(at: index) as! T }
        if type == Bool.self { return try bool(at: index) as! T }
        if let scalar = type as? any NodeScalar.Type { return try scalar.read(from: self, at: index) as! T }
        let saved = current
        current = index
        defer { current = saved }
        return try T(from: self)
    }

    @usableFromInline func isNull(_ index: Int) -> Bool { node(index).kind == .null }

    func bool(at index: Int) throws -> Bool {
        let node = node(index)
        guard node.kind == .bool else { throw unsupported() }
        return node.start == 1
    }

    @usableFromInline func string(at index: Int) throws -> String {
        let node = node(index)
        let raw = UnsafeRawBufferPointer(rebasing: document.bytes[node.start..<node.end])
        switch node.kind {
        case .string:
            // Most stored text is ASCII (the scanner noted whether it is), which needs no
            // validating: `String(decoding:)` of it is exact, and far cheaper than the generic
            // `String(validating:)`.
            if node.count == 1 { return String(decoding: raw, as: UTF8.self) }
            guard let text = String(validating: raw, as: UTF8.self) else { throw unsupported() }
            return text
        case .escapedString:
            guard let bytes = JSONUnescape.bytes(raw), let text = String(validating: bytes, as: UTF8.self) else { throw unsupported() }
            return text
        default:
            throw unsupported()
        }
    }

    /// Plain integers only (`-?[0-9]+`, no `-0`); fractions, exponents and overflow are Foundation's.
    func integer<T: FixedWidthInteger>(_ type: T.Type, at index: Int) throws -> T {
        let node = node(index)
        guard node.kind == .number else { throw unsupported() }
        var offset = node.start
        let negative = document.bytes[offset] == UInt8(ascii: "-")
        if negative { offset += 1 }
        var magnitude: UInt64 = 0
        while offset < node.end {
            let digit = document.bytes[offset] &- UInt8(ascii: "0")
            guard digit <= 9 else { throw unsupported() }
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2 else { throw unsupported() }
            magnitude = sum
            offset += 1
        }
        if negative {
            guard T.isSigned, magnitude != 0, magnitude <= UInt64(Int64.max) + 1,
                  let value = T(exactly: magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)) else { throw unsupported() }
            return value
        }
        guard let value = T(exactly: magnitude) else { throw unsupported() }
        return value
    }

    func double(at index: Int) throws -> Double {
        let node = node(index)
        guard node.kind == .number else { throw unsupported() }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: document.bytes[node.start..<node.end]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw unsupported() }
        return value
    }

    /// As `EventJSON`'s date strategy: RFC 3339 with or without fractional seconds.
    func date(at index: Int) throws -> Date {
        // A plain string of the fast shape is parsed where it lies: the string made first (24
        // bytes, too long to be stored inline) was an allocation per date.
        let node = node(index)
        if node.kind == .string {
            let raw = UnsafeRawBufferPointer(rebasing: document.bytes[node.start..<node.end])
            if let date = RFC3339Date.parse(utf8: raw.assumingMemoryBound(to: UInt8.self)) { return date }
        }
        let text = try string(at: index)
        if let date = RFC3339Date.parse(text) { return date }
        if let date = try? Date(text, strategy: EventJSON.rfc3339) { return date }
        if let date = try? Date(text, strategy: .iso8601) { return date }
        throw unsupported()
    }
}

/// The types `NodeDecoder` reads straight from a node rather than through `init(from:)`.
protocol NodeScalar {
    static func read(from decoder: NodeDecoder, at index: Int) throws -> Self
}

extension String: NodeScalar {
    static func read(from decoder: NodeDecoder, at index: Int) throws -> String { try decoder.string(at: index) }
}

extension Bool: NodeScalar {
    static func read(from decoder: NodeDecoder, at index: Int) throws -> Bool { try decoder.bool(at: index) }
}

extension Double: NodeScalar {
    static func read(from decoder: NodeDecoder, at index: Int) throws -> Double { try decoder.double(at: index) }
}

extension Date: NodeScalar {
    static func read(from decoder: NodeDecoder, at index: Int) throws -> Date { try decoder.date(at: index) }
}

extension Int: NodeScalar {}
extension Int64: NodeScalar {}
extension Int32: NodeScalar {}
extension Int16: NodeScalar {}
extension Int8: NodeScalar {}
extension UInt: NodeScalar {}
extension UInt64: NodeScalar {}
extension UInt32: NodeScalar {}
extension UInt16: NodeScalar {}
extension UInt8: NodeScalar {}

extension FixedWidthInteger where Self: NodeScalar {
    static func read(from decoder: NodeDecoder, at index: Int) throws -> Self { try decoder.integer(Self.self, at: index) }
}

/// Foundation encodes these its own way (and `Float` through `Double`): its decoder's.
extension Float: NodeScalar {
    static func read(from decoder: NodeDecoder, at index: Int) throws -> Float { throw decoder.unsupported() }
}

extension URL: NodeScalar {
    static func read(from decoder: NodeDecoder, at index: Int) throws -> URL { throw decoder.unsupported() }
}

extension Data: NodeScalar {
    static func read(from decoder: NodeDecoder, at index: Int) throws -> Data { throw decoder.unsupported() }
}

extension Decimal: NodeScalar {
    static func read(from decoder: NodeDecoder, at index: Int) throws -> Decimal { throw decoder.unsupported() }
}
