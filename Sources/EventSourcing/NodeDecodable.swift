import Foundation

/// A payload (or a part of one) that reads itself straight from the scanned JSON nodes, without
/// `Decoder`'s containers: the events that make up most of a log (a task completed, a review
/// with its answers, a photo added) were a fifth to a third of a rebuild through `init(from:)`,
/// most of it in the containers' existential and generic dispatch (issue 9).
///
/// `init(nodes:)` must read what the synthesized `init(from:)` reads, key for key: a required
/// key with `value`, an optional one (`decodeIfPresent`) with `optional`. It may throw on
/// anything: `EventJSONDecoder` then decodes the payload through `init(from:)`, and Foundation
/// after it, so a payload read here is one those would read the same, and whatever they refuse
/// is refused with their error. `NodeDecodingAgreement` checks a conformance against them.
public protocol NodeDecodable: Decodable, NodeReadable {
    /// Reads the value from the JSON object `object`.
    init(nodes object: NodeObject) throws
}

/// A JSON object of a scanned document, for `NodeDecodable.init(nodes:)`. Its readers accept
/// what `NodeDecoder` accepts and throw `EventJSONDecoder.Unsupported` for the rest.
public struct NodeObject {
    let decoder: NodeDecoder
    let object: Int

    init(decoder: NodeDecoder, object: Int) {
        self.decoder = decoder
        self.object = object
    }

    /// The value under `key`, which must be there (a synthesized `decode(_:forKey:)`).
    public func value<T: NodeReadable>(_ key: StaticString) throws -> T {
        guard let index = valueIndex(key) else { throw decoder.unsupported() }
        return try T.read(NodeValue(decoder: decoder, index: index))
    }

    /// The value under `key`, nil when it is absent or null (a synthesized `decodeIfPresent`).
    public func optional<T: NodeReadable>(_ key: StaticString) throws -> T? {
        guard let index = valueIndex(key), !decoder.isNull(index) else { return nil }
        return try T.read(NodeValue(decoder: decoder, index: index))
    }

    /// The index of `key`'s value node. Keys are plain ASCII names, so an escaped stored key
    /// (which could spell one) makes the reader give up rather than unescape.
    private func valueIndex(_ key: StaticString) -> Int? {
        let wanted = key.utf8CodeUnitCount
        let nodes = decoder.document.nodes
        let base = decoder.document.bytes.baseAddress!
        var member = object + 1
        for _ in 0..<nodes[object].count {
            let node = nodes[member]
            // Length and first byte first: a call to `memcmp` per member was a tenth of reading a review.
            if node.kind == .string, node.end - node.start == wanted, wanted == 0
                || (base.load(fromByteOffset: node.start, as: UInt8.self) == key.utf8Start.pointee
                    && memcmp(base + node.start, key.utf8Start, wanted) == 0) {
                return member + 1
            }
            if node.kind == .escapedString { return nil }
            let value = nodes[member + 1]
            member = value.kind == .object || value.kind == .array ? value.end : member + 2
        }
        return nil
    }
}

/// One value node of a scanned document, for `NodeReadable.read`.
public struct NodeValue {
    let decoder: NodeDecoder
    let index: Int
}

/// What `NodeObject` reads: the scalars `NodeDecoder` reads, `NodeDecodable` objects, string
/// enums and arrays of any of them.
public protocol NodeReadable {
    /// The value of `node`; throws `EventJSONDecoder.Unsupported` for what the Codable path
    /// would decode otherwise (or refuse).
    static func read(_ node: NodeValue) throws -> Self
}

extension String: NodeReadable {
    /// As `NodeDecoder` reads it.
    public static func read(_ node: NodeValue) throws -> String { try node.decoder.string(at: node.index) }
}

extension Bool: NodeReadable {
    /// As `NodeDecoder` reads it.
    public static func read(_ node: NodeValue) throws -> Bool { try node.decoder.bool(at: node.index) }
}

extension Double: NodeReadable {
    /// As `NodeDecoder` reads it.
    public static func read(_ node: NodeValue) throws -> Double { try node.decoder.double(at: node.index) }
}

extension Date: NodeReadable {
    /// As `NodeDecoder` reads it.
    public static func read(_ node: NodeValue) throws -> Date { try node.decoder.date(at: node.index) }
}

extension Int: NodeReadable {}
extension Int64: NodeReadable {}
extension UInt64: NodeReadable {}
extension UInt16: NodeReadable {}

extension FixedWidthInteger where Self: NodeReadable {
    /// A plain integer, as `NodeDecoder` reads it.
    public static func read(_ node: NodeValue) throws -> Self { try node.decoder.integer(Self.self, at: node.index) }
}

extension NodeDecodable {
    /// Reads an object through `init(nodes:)`.
    public static func read(_ node: NodeValue) throws -> Self {
        guard node.decoder.node(node.index).kind == .object else { throw node.decoder.unsupported() }
        return try Self(nodes: NodeObject(decoder: node.decoder, object: node.index))
    }
}

extension RawRepresentable where Self: NodeReadable & Decodable, RawValue == String {
    /// A string enum as its synthesized `init(from:)` reads it: the raw value, or a refusal.
    public static func read(_ node: NodeValue) throws -> Self {
        guard let value = Self(rawValue: try node.decoder.string(at: node.index)) else { throw node.decoder.unsupported() }
        return value
    }
}

extension Array: NodeReadable where Element: NodeReadable {
    /// Every element in order; a null element is refused as `[Element].init(from:)` refuses it.
    public static func read(_ node: NodeValue) throws -> [Element] {
        let decoder = node.decoder
        let array = decoder.node(node.index)
        guard array.kind == .array else { throw decoder.unsupported() }
        var elements: [Element] = []
        elements.reserveCapacity(array.count)
        var element = node.index + 1
        for _ in 0..<array.count {
            elements.append(try Element.read(NodeValue(decoder: decoder, index: element)))
            element = decoder.next(after: element)
        }
        return elements
    }
}
