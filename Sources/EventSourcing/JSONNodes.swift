import Foundation

/// A JSON document scanned once into a flat list of nodes, for `EventJSONDecoder`.
///
/// An object's node is followed by its members, each a key node (a string) and the value's
/// subtree; an array's by its elements' subtrees. A container's `next` is the index just past its
/// subtree, so a decoder skips a member it does not want in one step. The scanner accepts only
/// strict JSON, and only the part of it events are written in: anything else (a duplicate key,
/// nesting deeper than `depthMax`, invalid UTF-8) throws `EventJSONDecoder.Unsupported`, and
/// Foundation's decoder, which knows every corner of the format, gets the document instead.
///
/// A reader that wants only the top level's scalars (a review's ids) scans with
/// `keepingNested: false`: the whole document is still scanned and checked, but a container
/// inside the top-level value is kept as one `skipped` node, which every reader refuses.
struct JSONNodes {
    enum Kind: UInt8 {
        case object, array, string, escapedString, number, bool, null
        /// A container checked but not kept (`keepingNested: false`): no nodes follow for it.
        case skipped
    }

    struct Node {
        var kind: Kind
        /// Strings: the first byte after the opening quote; numbers: the first byte; `true` and
        /// `false`: 1 and 0.
        var start: Int
        /// Strings and numbers: the index of the byte after the last; containers: the index of
        /// the node after the subtree.
        var end: Int
        /// Containers: members or elements; plain strings: 1 when every byte is ASCII.
        var count: Int
    }

    /// Containers nested deeper are left to Foundation.
    static let depthMax = 64
    /// Objects with more members are left to Foundation (the duplicate check is quadratic).
    static let membersMax = 64

    let bytes: UnsafeRawBufferPointer
    private(set) var nodes: [Node] = []
    private var offset = 0
    /// Whether containers below the top-level value get nodes of their own.
    private let keepingNested: Bool
    /// False while a skipped container is scanned: its contents are checked, not kept.
    private var recording = true

    /// Scans `bytes`, which must stay valid while the nodes are used. Without `keepingNested`,
    /// each container nested in the top-level value is one `skipped` node; a nested object
    /// whose keys are not in ascending order (so that a duplicate would need the kept keys to
    /// find) throws, and the caller's fallback scans it whole.
    init(_ bytes: UnsafeRawBufferPointer, keepingNested: Bool = true) throws(EventJSONDecoder.Unsupported) {
        self.bytes = bytes
        self.keepingNested = keepingNested
        // About a node per dozen bytes, so that the array never regrows; a shallow scan keeps few.
        nodes.reserveCapacity(keepingNested ? max(32, bytes.count / 12) : 32)
        skipWhitespace()
        try scanValue(depth: 0)
        skipWhitespace()
        guard offset == bytes.count else { throw .init() }
    }

    private mutating func scanValue(depth: Int) throws(EventJSONDecoder.Unsupported) {
        guard offset < bytes.count, depth < Self.depthMax else { throw .init() }
        if depth == 1, !keepingNested, bytes[offset] == UInt8(ascii: "{") || bytes[offset] == UInt8(ascii: "[") {
            nodes.append(Node(kind: .skipped, start: offset, end: nodes.count + 1, count: 0))  // nothing of it follows
            recording = false
            defer { recording = true }
            if bytes[offset] == UInt8(ascii: "{") { try scanObject(depth: depth) } else { try scanArray(depth: depth) }
            return
        }
        switch bytes[offset] {
        case UInt8(ascii: "{"): try scanObject(depth: depth)
        case UInt8(ascii: "["): try scanArray(depth: depth)
        case UInt8(ascii: "\""): try scanString()
        case UInt8(ascii: "t"): try literal("true", .bool, value: 1)
        case UInt8(ascii: "f"): try literal("false", .bool, value: 0)
        case UInt8(ascii: "n"): try literal("null", .null, value: 0)
        default: try scanNumber()
        }
    }

    private mutating func scanObject(depth: Int) throws(EventJSONDecoder.Unsupported) {
        let index = nodes.count
        if recording { nodes.append(Node(kind: .object, start: offset, end: 0, count: 0)) }
        offset += 1
        skipWhitespace()
        var members = 0
        // While every key so far is plain and greater than the one before (events are written
        // with sorted keys), a greater key cannot repeat one: no quadratic duplicate check.
        var ascending = true
        var previousKey = Node(kind: .string, start: 0, end: 0, count: 0)
        if peek() == UInt8(ascii: "}") {
            offset += 1
        } else {
            while true {
                guard peek() == UInt8(ascii: "\""), members < Self.membersMax else { throw .init() }
                let key = nodes.count
                let keyNode = try scanString()
                if ascending, members > 0 { ascending = isPlainAndGreater(keyNode, than: previousKey) }
                if ascending, members == 0 { ascending = keyNode.kind == .string }
                if !ascending {
                    // Unkept keys cannot be compared: the caller's whole scan will.
                    guard recording else { throw .init() }
                    // The earlier keys, walked through the nodes scanned so far: no array per object.
                    var earlier = index + 1
                    for _ in 0..<members {
                        if sameString(earlier, key) { throw .init() }
                        let value = nodes[earlier + 1]
                        earlier = value.kind == .object || value.kind == .array ? value.end : earlier + 2
                    }
                }
                previousKey = keyNode
                members += 1
                skipWhitespace()
                guard peek() == UInt8(ascii: ":") else { throw .init() }
                offset += 1
                skipWhitespace()
                try scanValue(depth: depth + 1)
                skipWhitespace()
                guard let separator = peek() else { throw .init() }
                offset += 1
                if separator == UInt8(ascii: "}") { break }
                guard separator == UInt8(ascii: ",") else { throw .init() }
                skipWhitespace()
            }
        }
        if recording {
            nodes[index].count = members
            nodes[index].end = nodes.count
        }
    }

    private mutating func scanArray(depth: Int) throws(EventJSONDecoder.Unsupported) {
        let index = nodes.count
        if recording { nodes.append(Node(kind: .array, start: offset, end: 0, count: 0)) }
        offset += 1
        skipWhitespace()
        var count = 0
        if peek() == UInt8(ascii: "]") {
            offset += 1
        } else {
            while true {
                try scanValue(depth: depth + 1)
                count += 1
                skipWhitespace()
                guard let separator = peek() else { throw .init() }
                offset += 1
                if separator == UInt8(ascii: "]") { break }
                guard separator == UInt8(ascii: ",") else { throw .init() }
                skipWhitespace()
            }
        }
        if recording {
            nodes[index].count = count
            nodes[index].end = nodes.count
        }
    }

    /// A string's extent; escapes are checked here and decoded only when the value is read.
    /// A plain string's node has `count` 1 when every byte is ASCII, so that reading it needs no
    /// second pass to find out. Returns the string's node, kept or not.
    @discardableResult
    private mutating func scanString() throws(EventJSONDecoder.Unsupported) -> Node {
        offset += 1
        let start = offset
        var escaped = false
        var highBits: UInt64 = 0
        while true {
            // Eight bytes at a time while none ends the string, starts an escape or must be
            // escaped: the byte loop below was half of scanning a review's JSON.
            while offset + 8 <= bytes.count {
                let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                guard !Self.mayEndPlainRun(word) else { break }
                highBits |= word
                offset += 8
            }
            guard offset < bytes.count else { throw .init() }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") { break }
            guard byte >= 0x20 else { throw .init() }  // control characters must be escaped
            highBits |= UInt64(byte)
            if byte == UInt8(ascii: "\\") {
                escaped = true
                offset += 1
                guard offset < bytes.count else { throw .init() }
                switch bytes[offset] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    break
                case UInt8(ascii: "u"):
                    guard offset + 4 < bytes.count else { throw .init() }
                    for index in (offset + 1)...(offset + 4) where Self.hexValue(bytes[index]) == nil { throw .init() }
                    offset += 4
                default:
                    throw .init()
                }
            }
            offset += 1
        }
        let ascii = highBits & 0x8080_8080_8080_8080 == 0
        let node = Node(kind: escaped ? .escapedString : .string, start: start, end: offset, count: ascii ? 1 : 0)
        if recording { nodes.append(node) }
        offset += 1
        return node
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    private mutating func scanNumber() throws(EventJSONDecoder.Unsupported) {
        let start = offset
        if peek() == UInt8(ascii: "-") { offset += 1 }
        guard let first = peek(), Self.isDigit(first) else { throw .init() }
        offset += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek() == UInt8(ascii: ".") {
            offset += 1
            guard let digit = peek(), Self.isDigit(digit) else { throw .init() }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            offset += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
            guard let digit = peek(), Self.isDigit(digit) else { throw .init() }
            skipDigits()
        }
        if recording { nodes.append(Node(kind: .number, start: start, end: offset, count: 0)) }
    }

    private mutating func literal(_ word: StaticString, _ kind: Kind, value: Int) throws(EventJSONDecoder.Unsupported) {
        let length = word.utf8CodeUnitCount
        guard offset + length <= bytes.count else { throw .init() }
        for index in 0..<length where bytes[offset + index] != word.utf8Start[index] { throw .init() }
        if recording { nodes.append(Node(kind: kind, start: value, end: 0, count: 0)) }
        offset += length
    }

    /// Whether string node `current` is unescaped and sorts after string node `before` (also
    /// unescaped) byte by byte, as sorted-keys JSON writes them.
    private func isPlainAndGreater(_ current: Node, than before: Node) -> Bool {
        guard current.kind == .string, before.kind == .string else { return false }
        let currentCount = current.end - current.start
        let beforeCount = before.end - before.start
        let common = min(currentCount, beforeCount)
        let order = common == 0 ? 0 : memcmp(bytes.baseAddress! + current.start, bytes.baseAddress! + before.start, common)
        return order > 0 || (order == 0 && currentCount > beforeCount)
    }

    /// Whether string nodes `a` and `b` hold the same text; escapes may spell it two ways.
    private func sameString(_ a: Int, _ b: Int) -> Bool {
        let first = UnsafeRawBufferPointer(rebasing: bytes[nodes[a].start..<nodes[a].end])
        let second = UnsafeRawBufferPointer(rebasing: bytes[nodes[b].start..<nodes[b].end])
        guard nodes[a].kind == .escapedString || nodes[b].kind == .escapedString else { return first.elementsEqual(second) }
        // A lone surrogate decodes to nil on both sides: treated as equal, so Foundation decides.
        return JSONUnescape.bytes(first) == JSONUnescape.bytes(second)
    }

    private func peek() -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    private mutating func skipDigits() {
        while let byte = peek(), Self.isDigit(byte) { offset += 1 }
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
    }

    /// Whether any byte of `word` is a quote, a backslash or a control character (below 0x20):
    /// the classic exact tests for a zero byte of `word ^ pattern`, and for a byte below `n`.
    private static func mayEndPlainRun(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let hasQuote = (quotes &- ones) & ~quotes
        let hasBackslash = (backslashes &- ones) & ~backslashes
        let hasControl = (word &- ones &* 0x20) & ~word
        return (hasQuote | hasBackslash | hasControl) & highs != 0
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
