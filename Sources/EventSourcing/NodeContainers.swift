import Foundation

/// The containers of `NodeDecoder`. Every primitive forwards to `NodeDecoder.value(_:at:)`, so
/// each type is read one way whichever container asks.
struct NodeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: NodeDecoder
    let object: Int

    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] {
        var keys: [Key] = []
        var member = object + 1
        for _ in 0..<decoder.node(object).count {
            if let name = try? decoder.string(at: member), let key = Key(stringValue: name) { keys.append(key) }
            member = decoder.next(after: member + 1)
        }
        return keys
    }

    /// The index of `key`'s value, found by comparing the key's UTF-8 with the stored bytes.
    private func valueIndex(_ key: Key) -> Int? {
        var name = key.stringValue
        return name.withUTF8 { wanted in
            var member = object + 1
            for _ in 0..<decoder.node(object).count {
                let node = decoder.node(member)
                switch node.kind {
                case .string where node.end - node.start == wanted.count:
                    // An empty key's buffer may have no address at all.
                    if wanted.isEmpty || memcmp(decoder.document.bytes.baseAddress! + node.start, wanted.baseAddress!, wanted.count) == 0 {
                        return member + 1
                    }
                case .escapedString:  // rare: a dictionary key with a quote or a control character
                    let raw = UnsafeRawBufferPointer(rebasing: decoder.document.bytes[node.start..<node.end])
                    if JSONUnescape.bytes(raw)?.elementsEqual(UnsafeRawBufferPointer(wanted)) == true { return member + 1 }
                default:
                    break
                }
                member = decoder.next(after: member + 1)
            }
            return nil
        }
    }

    private func existing(_ key: Key) throws -> Int {
        guard let index = valueIndex(key) else { throw decoder.unsupported() }
        return index
    }

    func contains(_ key: Key) -> Bool { valueIndex(key) != nil }
    func decodeNil(forKey key: Key) throws -> Bool { decoder.isNull(try existing(key)) }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.value(type, at: existing(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.value(type, at: existing(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.value(type, at: existing(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.value(type, at: existing(key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.value(type, at: existing(key)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.value(type, at: existing(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder.value(type, at: existing(key)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder.value(type, at: existing(key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.value(type, at: existing(key)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.value(type, at: existing(key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder.value(type, at: existing(key)) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder.value(type, at: existing(key)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder.value(type, at: existing(key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder.value(type, at: existing(key)) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder.value(type, at: existing(key)) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let index = try existing(key)
        guard decoder.node(index).kind == .object else { throw decoder.unsupported() }
        return KeyedDecodingContainer(NodeKeyedContainer<NestedKey>(decoder: decoder, object: index))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let index = try existing(key)
        guard decoder.node(index).kind == .array else { throw decoder.unsupported() }
        return NodeUnkeyedContainer(decoder: decoder, array: index)
    }

    func superDecoder() throws -> any Decoder { throw decoder.unsupported() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw decoder.unsupported() }
}

struct NodeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: NodeDecoder
    let count: Int?
    private(set) var currentIndex = 0
    /// The node of the next element.
    private var position: Int

    init(decoder: NodeDecoder, array: Int) {
        self.decoder = decoder
        count = decoder.node(array).count
        position = array + 1
    }

    var codingPath: [any CodingKey] { [] }
    var isAtEnd: Bool { currentIndex >= count! }

    private mutating func advance() throws -> Int {
        guard !isAtEnd else { throw decoder.unsupported() }
        let index = position
        position = decoder.next(after: index)
        currentIndex += 1
        return index
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw decoder.unsupported() }
        guard decoder.isNull(position) else { return false }
        _ = try advance()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decoder.value(type, at: advance()) }
    mutating func decode(_ type: String.Type) throws -> String { try decoder.value(type, at: advance()) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decoder.value(type, at: advance()) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decoder.value(type, at: advance()) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decoder.value(type, at: advance()) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decoder.value(type, at: advance()) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decoder.value(type, at: advance()) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decoder.value(type, at: advance()) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decoder.value(type, at: advance()) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decoder.value(type, at: advance()) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.value(type, at: advance()) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.value(type, at: advance()) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.value(type, at: advance()) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.value(type, at: advance()) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.value(type, at: advance()) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let index = try advance()
        guard decoder.node(index).kind == .object else { throw decoder.unsupported() }
        return KeyedDecodingContainer(NodeKeyedContainer<NestedKey>(decoder: decoder, object: index))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let index = try advance()
        guard decoder.node(index).kind == .array else { throw decoder.unsupported() }
        return NodeUnkeyedContainer(decoder: decoder, array: index)
    }

    mutating func superDecoder() throws -> any Decoder { throw decoder.unsupported() }
}

struct NodeSingleValueContainer: SingleValueDecodingContainer {
    let decoder: NodeDecoder
    let index: Int

    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { decoder.isNull(index) }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.value(type, at: index) }
    func decode(_ type: String.Type) throws -> String { try decoder.value(type, at: index) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.value(type, at: index) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.value(type, at: index) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.value(type, at: index) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.value(type, at: index) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.value(type, at: index) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.value(type, at: index) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.value(type, at: index) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.value(type, at: index) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.value(type, at: index) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.value(type, at: index) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.value(type, at: index) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.value(type, at: index) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.value(type, at: index) }
}
