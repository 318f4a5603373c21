import Crypto
import Foundation
import Testing

@testable import EventSourcing

/// A payload read from the nodes, with personal data, an optional, a list of objects and a
/// string enum: the shapes the domains' hot events have.
private struct Memo: NodeDecodable, Codable, PersonalData, Equatable {
    enum Mood: String, Codable, NodeReadable { case calm, busy }
    struct Line: NodeDecodable, Codable, Equatable {
        var text: String
        var weight: Int?
        init(text: String, weight: Int?) {
            self.text = text
            self.weight = weight
        }
        init(nodes object: NodeObject) throws {
            self.init(text: try object.value("text"), weight: try object.optional("weight"))
        }
    }

    var authorId: String
    var title: String
    var note: String?
    var mood: Mood
    var lines: [Line]
    var done: Bool
    var at: Date

    static var personalFields: [PersonalField<Memo>] { [.text(\.title, of: \.authorId, erased: "")] }

    init(authorId: String, title: String, note: String?, mood: Mood, lines: [Line], done: Bool, at: Date) {
        (self.authorId, self.title, self.note, self.mood, self.lines, self.done, self.at) = (authorId, title, note, mood, lines, done, at)
    }

    init(nodes object: NodeObject) throws {
        self.init(
            authorId: try object.value("authorId"), title: try object.value("title"), note: try object.optional("note"),
            mood: try object.value("mood"), lines: try object.value("lines"), done: try object.value("done"), at: try object.value("at"))
    }
}

/// A conformance with a mistake in it: it reads `note` where the payload has `title`.
private struct Misread: NodeDecodable, Codable, Equatable {
    var title: String
    var note: String

    init(title: String, note: String) {
        (self.title, self.note) = (title, note)
    }

    init(nodes object: NodeObject) throws {
        self.init(title: try object.value("note"), note: try object.value("note"))
    }
}

private let memo = Memo(
    authorId: "0193aaaa-0000-7000-8000-000000000001", title: "MARKER-title", note: "a note", mood: .busy,
    lines: [.init(text: "one", weight: 3), .init(text: "two", weight: nil)], done: true,
    at: Date(timeIntervalSince1970: 1_800_000_000.25))

@Suite("Node-decodable payloads")
struct NodeDecodableTests {
    @Test func aPayloadReadFromTheNodesAgreesWithFoundationOnEveryVariantAndMutation() throws {
        var random = SystemRandomNumberGenerator()
        let problems = try NodeDecodingAgreement.disagreements(memo, rounds: 100, using: &random)
        #expect(problems.isEmpty, "\(problems.prefix(3))")
    }

    @Test func aConformanceThatMisreadsAKeyIsCaughtAndIsWhatDecodingReturns() throws {
        var random = SystemRandomNumberGenerator()
        let sample = Misread(title: "title", note: "note")
        // The node path is the one taken: what it misreads is what decoding returns.
        #expect(try EventJSON.decode(Misread.self, from: EventJSON.encode(sample)) == Misread(title: "note", note: "note"))
        let problems = try NodeDecodingAgreement.disagreements(sample, rounds: 5, using: &random)
        #expect(!problems.isEmpty)
    }

    @Test func whatTheNodePathCannotReadFallsBackAndWhatFoundationRefusesIsRefused() throws {
        // A number for a string: refused by every path.
        let wrongType = Data(#"{"authorId":"a","at":"2026-11-21T20:30:00Z","done":true,"lines":[],"mood":"calm","title":7}"#.utf8)
        #expect(throws: (any Error).self) { try EventJSON.decode(Memo.self, from: wrongType) }
        // An unknown mood: refused.
        let unknownCase = Data(#"{"authorId":"a","at":"2026-11-21T20:30:00Z","done":true,"lines":[],"mood":"odd","title":"t"}"#.utf8)
        #expect(throws: (any Error).self) { try EventJSON.decode(Memo.self, from: unknownCase) }
        // A fraction for an optional integer: the node path gives up, Foundation reads it.
        let fraction = Data(#"{"authorId":"a","at":"2026-11-21T20:30:00Z","done":false,"lines":[{"text":"x","weight":2.0}],"mood":"calm","title":"t"}"#.utf8)
        #expect(throws: (any Error).self) { try EventJSONDecoder.decodeFromNodes(Memo.self, from: fraction) }
        #expect(try EventJSON.decode(Memo.self, from: fraction) == EventJSON.foundationDecode(Memo.self, from: fraction))
    }

    @Test func sealedTextReadFromTheNodesIsOpenedAndErasedAsBefore() throws {
        let directory = NSTemporaryDirectory() + "node-decodable-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keys = try PersonalDataKeyStore(dataDirectory: directory, secret: SymmetricKey(size: .bits256))
        let data = try EventJSON.encode(memo, sealing: keys)
        #expect(!String(decoding: data, as: UTF8.self).contains("MARKER"))
        // The node path reads the sealed text as stored; decoding opens it.
        #expect(try EventJSONDecoder.decodeFromNodes(Memo.self, from: data).title.hasPrefix(PersonalDataSeal.prefix))
        #expect(try EventJSON.decode(Memo.self, from: data, opening: keys) == memo)
        try keys.erase(memo.authorId)
        let erased = try EventJSON.decode(Memo.self, from: data, opening: keys)
        #expect(erased.title == "" && erased.note == memo.note && erased.lines == memo.lines)
    }

    /// The scanner skips eight plain bytes at a time and notes whether a string is ASCII: a
    /// quote, backslash, control character or non-ASCII byte at any offset must still be seen.
    @Test func everySpecialByteIsFoundWhereverItFallsInAString() throws {
        struct Text: Codable, Equatable { var text: String }
        for special in ["\"", "\\", "\n", "\u{1F}", "é", "🎉", "\u{7F}"] {
            for length in 0..<26 {
                for offset in 0...length {
                    var text = String(repeating: "a", count: length)
                    text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: offset))
                    let data = try EventJSON.encode(Text(text: text))
                    #expect(try EventJSONDecoder.decode(Text.self, from: data).text == text)
                }
            }
        }
        // Raw (unescaped) control characters are not JSON: refused however far into the string.
        for offset in [0, 7, 8, 9, 17] {
            var bytes = Array(#"{"text":""#.utf8) + Array(repeating: UInt8(ascii: "a"), count: 20) + Array(#""}"#.utf8)
            bytes[9 + offset] = 0x0A
            #expect(throws: (any Error).self) { try EventJSONDecoder.decode(Text.self, from: Data(bytes)) }
        }
    }
}
