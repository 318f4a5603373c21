import Foundation
import Testing

@testable import EventSourcing

/// A payload read for its top-level scalars alone, as a review's ids are.
private struct Header: NodeDecodable, Codable, Equatable {
    var id: String
    var count: Int
    static var readsNestedContainers: Bool { false }
}

extension Header {
    init(nodes object: NodeObject) throws {
        self.init(id: try object.value("id"), count: try object.value("count"))
    }
}

/// One that says it reads no nested container and yet does (a conformance's mistake).
private struct Overreach: NodeDecodable, Codable, Equatable {
    var id: String
    var tags: [String]
    static var readsNestedContainers: Bool { false }
}

extension Overreach {
    init(nodes object: NodeObject) throws {
        self.init(id: try object.value("id"), tags: try object.value("tags"))
    }
}

/// `JSONNodes(_:keepingNested: false)`: the scan a top-level-only reader gets.
@Suite("Shallow JSON scan")
struct ShallowScanTests {
    private func scan(_ json: String, keepingNested: Bool) throws -> [JSONNodes.Node] {
        try Array(json.utf8).withUnsafeBytes { buffer in try JSONNodes(buffer, keepingNested: keepingNested).nodes }
    }

    @Test func itKeepsTheTopLevelAndOneSkippedNodePerNestedContainer() throws {
        let json = #"{"a":[1,{"b":"x"}],"c":"y","d":{"e":[],"f":null},"g":3}"#
        let shallow = try scan(json, keepingNested: false)
        #expect(shallow.map(\.kind) == [.object, .string, .skipped, .string, .string, .string, .skipped, .string, .number])
        #expect(shallow[0].count == 4 && shallow[0].end == shallow.count)
        #expect(shallow[2].end == 3 && shallow[6].end == 7, "nothing follows a skipped container")
        let whole = try scan(json, keepingNested: true)
        #expect(whole.count == 17)
        // The top level's scalars lie where the whole scan has them.
        let scalars = { (nodes: [JSONNodes.Node]) in nodes.filter { $0.kind == .number || $0.kind == .string }.map { [$0.start, $0.end] } }
        #expect(Set(scalars(shallow)).isSubset(of: Set(scalars(whole))))
    }

    /// Every document the whole scan refuses for what lies inside a nested container, the
    /// shallow scan refuses too: it checks the bytes it keeps no nodes for.
    @Test(arguments: [
        #"{"a":[1,]}"#, #"{"a":{"k":1,}}"#, #"{"a":[1 2]}"#, #"{"a":{"k" 1}}"#, #"{"a":["x\q"]}"#, #"{"a":["\u12G4"]}"#,
        "{\"a\":[\"tab\u{9}\"]}", #"{"a":[01]}"#, #"{"a":[1.]}"#, #"{"a":[-]}"#, #"{"a":[tru]}"#, #"{"a":[nul]}"#,
        #"{"a":{"k":1,"k":2}}"#, #"{"a":[{"k":1,"k":2}]}"#, #"{"a":[1}"#, #"{"a":{"k":1]}"#, #"{"a":[[1]"#,
        "{\"a\":" + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "}",
    ])
    func whatTheWholeScanRefusesInsideIsRefused(_ json: String) {
        #expect(throws: EventJSONDecoder.Unsupported.self) { try scan(json, keepingNested: true) }
        #expect(throws: EventJSONDecoder.Unsupported.self) { try scan(json, keepingNested: false) }
    }

    /// A nested object whose keys are out of order could repeat one that only the kept nodes
    /// would show; the shallow scan gives up on it, and the reader's fallback scans it whole.
    @Test func keysOutOfOrderInANestedObjectAreLeftToTheWholeScan() throws {
        let json = #"{"count":2,"id":"h","x":{"z":1,"a":2}}"#
        #expect(throws: EventJSONDecoder.Unsupported.self) { try scan(json, keepingNested: false) }
        #expect(try scan(json, keepingNested: true).count == 11)
        #expect(try EventJSON.decode(Header.self, from: Data(json.utf8)) == Header(id: "h", count: 2))
    }

    @Test func aTopLevelReaderReadsItsScalarsFromTheShallowScan() throws {
        let data = Data(#"{"count":7,"id":"h","items":[{"n":"\u00e9","v":[1,2,{"w":null}]}],"meta":{"k":"v"}}"#.utf8)
        #expect(try EventJSONDecoder.decodeFromNodes(Header.self, from: data) == Header(id: "h", count: 7))
        #expect(try EventJSON.foundationDecode(Header.self, from: data) == Header(id: "h", count: 7))
    }

    /// A conformance that reads a nested value while saying it reads none finds it refused, and
    /// its payload is still read right, through its `init(from:)`.
    @Test func aReaderThatReachesIntoASkippedContainerFallsBackAndReadsRight() throws {
        let data = Data(#"{"id":"o","tags":["a","b"]}"#.utf8)
        #expect(throws: EventJSONDecoder.Unsupported.self) { try EventJSONDecoder.decodeFromNodes(Overreach.self, from: data) }
        #expect(try EventJSON.decode(Overreach.self, from: data) == Overreach(id: "o", tags: ["a", "b"]))
    }
}
