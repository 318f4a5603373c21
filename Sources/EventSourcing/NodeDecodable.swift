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

    /// Whether `init(nodes:)` reads into a nested object or array, when this is the document's
    /// top-level value. True unless said otherwise; a type read for its top-level scalars alone
    /// (a review's ids, where the answers are most of the bytes) says false, and the scan then
    /// keeps no nodes for the nested containers it checks (a nested value reads as refused).
    static var readsNestedContainers: Bool { get }
}

extension NodeDecodable {
    public static var readsNestedContainers: Bool { true }
}

/// A JSON object of a scanned document, for `NodeDecodable.init(nodes:)`. Its readers accept
/// what `NodeDecoder` accepts and throw `EventJSONDecoder.Unsupported` for the rest.
///
/// Its generic readers, and `NodeValue`'s, are `@inlinable`, as are `Array`'s and
/// `NodeDecodable`'s `read`: each domain's `init(nodes:)` then gets them specialized for its own
/// fields. Called as generic code of this module they looked up `[Element]`'s metadata and
/// conformances for every array read (a fifth of decoding a quiz's game).
public struct NodeObject {
    @usableFromInline let decoder: NodeDecoder
    @usableFromInline let object: Int

    @usableFromInline init(decoder: NodeDecoder, object: Int) {
        self.decoder = decoder
        self.object = object
    }

    /// The value under `key`, which must be there (a synthesized `decode(_:forKey:)`).
    @inlinable public func value<T: NodeReadable>(_ key: StaticString) throws -> T {
        guard let index = valueIndex(key) else { throw decoder.unsupported() }
        return try T.read(NodeValue(decoder: decoder, index: index))
    }

    /// The value under `key`, nil when it is absent or null (a synthesized `decodeIfPresent`).
    @inlinable public func optional<T: NodeReadable>(_ key: StaticString) throws -> T? {
        guard let index = valueIndex(key), !decoder.isNull(index) else { return nil }
        return try T.read(NodeValue(decoder: decoder, index: index))
    }

    /// The index of `key`'s value node. Keys are plain ASCII names, so an escaped stored key
    /// (which could spell one) makes the reader give up rather than unescape.
    @usableFromInline func valueIndex(_ key: StaticString) -> Int? {
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
    @usableFromInline let decoder: NodeDecoder
    @usableFromInline let index: Int

    @usableFromInline init(decoder: NodeDecoder, index: Int) {
        self.decoder = decoder
        self.index = index
    }
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
    @inlinable public static func read(_ node: NodeValue) throws -> Self {
        guard node.decoder.isObject(node.index) else { throw node.decoder.unsupported() }
        return try Self(nodes: NodeObject(decoder: node.decoder, object: node.index))
    }
}

extension RawRepresentable where Self: NodeReadable & Decodable, RawValue == String {
    /// A string enum as its synthesized `init(from:)` reads it: the raw value, or a refusal.
    @inlinable public static func read(_ node: NodeValue) throws -> Self {
        guard let value = Self(rawValue: try node.decoder.string(at: node.index)) else { throw node.decoder.unsupported() }
        return value
    }
}

extension Array: NodeReadable where Element: NodeReadable {
    /// Every element in order; a null element is refused as `[Element].init(from:)` refuses it.
    @inlinable public static func read(_ node: NodeValue) throws -> [Element] {
        let decoder = node.decoder
        let count = try decoder.elementCount(node.index)
        var elements: [Element] = []
        elements.reserveCapacity(count)
        var element = node.index + 1
        for _ in 0..<count {
            elements.append(try Element.read(NodeValue(decoder: decoder, index: element)))
            element = decoder.next(after: element)
        }
        return elements
    }
}
