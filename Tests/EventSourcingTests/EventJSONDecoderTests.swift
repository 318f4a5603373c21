import Foundation
import Testing

@testable import EventSourcing

/// A payload with every shape events use, and a few they do not yet.
private struct KitchenSink: Codable, Equatable {
    enum Colour: String, Codable { case red, green }
    enum Shape: Codable, Equatable {
        case circle(radius: Double)
        case square(side: Int, label: String?)
        case none
    }
    struct Inner: Codable, Equatable { var name: String; var tags: [String]; var at: Date? }

    var text: String
    var int: Int
    var int64: Int64
    var uint64: UInt64
    var small: Int8
    var flag: Bool
    var double: Double
    var date: Date
    var optionalText: String?
    var optionalInt: Int?
    var list: [Int]
    var nested: [[String]]
    var inner: Inner
    var inners: [Inner]
    var map: [String: Int]
    var colour: Colour
    var shapes: [Shape]
}

private func sample(_ random: inout some RandomNumberGenerator) -> KitchenSink {
    let texts = ["", "plain", "quote \" backslash \\ slash /", "tab\tnewline\ncr\r", "\u{0}\u{1F}", "émoji 🎉 𝄞",
                 "\u{202E}bidi", "日本語", String(repeating: "x", count: 300)]
    func text() -> String { texts.randomElement(using: &random)! }
    let date = Date(timeIntervalSince1970: Double(Int64.random(in: 0...4_000_000_000_000, using: &random)) / 1_000)
    return KitchenSink(
        text: text(), int: [Int.min, Int.max, 0, -1, 42, Int.random(in: .min ... .max, using: &random)].randomElement(using: &random)!,
        int64: Int64.random(in: .min ... .max, using: &random), uint64: UInt64.random(in: 0 ... .max, using: &random),
        small: Int8.random(in: .min ... .max, using: &random), flag: Bool.random(using: &random),
        double: [0.1, -0.0, 52.373, 4.892, 1e-7, 1.7976931348623157e308, 5e-324, Double.random(in: -1e6...1e6, using: &random)]
            .randomElement(using: &random)!,
        date: date, optionalText: Bool.random(using: &random) ? nil : text(), optionalInt: Bool.random(using: &random) ? nil : -7,
        list: (0..<Int.random(in: 0...5, using: &random)).map { _ in Int.random(in: -1_000...1_000, using: &random) },
        nested: [[], [text()], [text(), text()]],
        inner: .init(name: text(), tags: [text()], at: Bool.random(using: &random) ? nil : date),
        inners: (0..<Int.random(in: 0...3, using: &random)).map { _ in .init(name: text(), tags: [], at: date) },
        map: ["a": 1, text(): 2, "ü": -3], colour: Bool.random(using: &random) ? .red : .green,
        shapes: [.circle(radius: 1.5), .square(side: 3, label: nil), .square(side: 4, label: text()), .none])
}

@Suite("Event JSON decoder")
struct EventJSONDecoderTests {
    /// What the fast decoder returns must be what Foundation returns, for everything the
    /// encoder writes, and it must not give up on any of it (or the log would be slow to fold).
    @Test func itDecodesWhatTheEncoderWritesExactlyAsFoundationDoes() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let value = sample(&random)
            let data = try EventJSON.encode(value)
            let fast = try EventJSONDecoder.decode(KitchenSink.self, from: data)
            let reference = try EventJSON.foundationDecode(KitchenSink.self, from: data)
            // Against Foundation, not against `value`: a date with milliseconds does not always
            // come back to the same bits it was written from, by either decoder.
            #expect(fast == reference, "\(String(decoding: data, as: UTF8.self))")
            #expect(fast.double.bitPattern == reference.double.bitPattern)
            #expect(fast.date.timeIntervalSinceReferenceDate.bitPattern == reference.date.timeIntervalSinceReferenceDate.bitPattern)
            #expect(fast.text == value.text && fast.map == value.map && fast.shapes == value.shapes)
        }
    }

    @Test func whitespaceAndKeyOrderDoNotMatter() throws {
        struct Pair: Codable, Equatable { var a: Int; var b: String }
        let data = Data(" \n{ \"b\" : \"x\" ,\t\"a\":1 }\r\n".utf8)
        #expect(try EventJSONDecoder.decode(Pair.self, from: data) == Pair(a: 1, b: "x"))
    }

    @Test func escapesAreDecodedAsFoundationDoes() throws {
        struct Text: Codable, Equatable { var t: String }
        let data = Data(#"{"t":"a\u00e9\ud83c\udf89\n\/\"\\\b\f\r\t"}"#.utf8)
        #expect(try EventJSONDecoder.decode(Text.self, from: data) == EventJSON.foundationDecode(Text.self, from: data))
        let escapedKey = Data(#"{"\u0074":"x"}"#.utf8)
        #expect(try EventJSONDecoder.decode(Text.self, from: escapedKey) == Text(t: "x"))
    }

    /// Documents the fast decoder leaves to Foundation. For each, the fast path must give up
    /// (never return a value of its own), and `EventJSON.decode` must answer as Foundation does.
    @Test(arguments: [
        #"{"n":1.0}"#, #"{"n":1e2}"#, #"{"n":-0}"#, #"{"n":99999999999999999999}"#, #"{"n":1,"n":2}"#,
        #"{"n":"1"}"#, #"{}"#, #"{"n":null}"#, #"{"n":1} x"#, #"{"n":1"#, #"{"n":01}"#, #"{"n":+1}"#, #"[1]"#,
        #"{"n":1,"s":"\ud800"}"#, "{\"n\":1,\"s\":\"\u{1}\"}", #"{"\u006e":1,"n":2}"#,
    ])
    func unusualDocumentsAreLeftToFoundation(_ json: String) {
        struct Number: Codable, Equatable { var n: Int; var s: String? }
        let data = Data(json.utf8)
        #expect(throws: EventJSONDecoder.Unsupported.self) { try EventJSONDecoder.decode(Number.self, from: data) }
        let reference = Result { try EventJSON.foundationDecode(Number.self, from: data) }
        let decoded = Result { try EventJSON.decode(Number.self, from: data) }
        #expect((try? decoded.get()) == (try? reference.get()))
    }

    @Test func invalidUTF8IsLeftToFoundation() {
        struct Text: Codable { var t: String }
        var data = Data(#"{"t":""#.utf8)
        data.append(contentsOf: [0xC3, 0x28])
        data.append(contentsOf: Data(#""}"#.utf8))
        #expect(throws: EventJSONDecoder.Unsupported.self) { try EventJSONDecoder.decode(Text.self, from: data) }
    }

    @Test func typesFoundationCodesItsOwnWayAreLeftToIt() throws {
        struct Special: Codable, Equatable { var url: URL; var bytes: Data; var ratio: Float }
        let value = Special(url: URL(string: "https://example.org/a?b=c")!, bytes: Data([1, 2, 3]), ratio: 0.1)
        let data = try EventJSON.encode(value)
        #expect(throws: EventJSONDecoder.Unsupported.self) { try EventJSONDecoder.decode(Special.self, from: data) }
        #expect(try EventJSON.decode(Special.self, from: data) == value)
    }

    /// Giving up is sticky: a payload that catches a failure and tries another reading must get
    /// Foundation's answer, not a different one the fast path reached on its second try.
    @Test func aPayloadThatCatchesAFailureIsDecodedByFoundation() throws {
        struct Lenient: Decodable, Equatable {
            var value: String
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                if let number = try? container.decode(Int.self, forKey: .n) { value = "int \(number)" } else {
                    value = "double \(try container.decode(Double.self, forKey: .n))"
                }
            }
            enum CodingKeys: String, CodingKey { case n }
        }
        let data = Data(#"{"n":2.0}"#.utf8)
        #expect(throws: EventJSONDecoder.Unsupported.self) { try EventJSONDecoder.decode(Lenient.self, from: data) }
        #expect(try EventJSON.decode(Lenient.self, from: data) == EventJSON.foundationDecode(Lenient.self, from: data))
    }

    @Test func deepNestingIsLeftToFoundation() {
        struct Any1: Codable { var n: Int? }
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: EventJSONDecoder.Unsupported.self) { try EventJSONDecoder.decode([[[Int]]].self, from: Data(deep.utf8)) }
    }

    @Test func theFastPathOnlySwitchRefusesInsteadOfFallingBack() {
        struct Number: Codable { var n: Int }
        #expect(throws: EventJSONDecoder.Unsupported.self) {
            try EventJSON.$fastPathOnly.withValue(true) { try EventJSON.decode(Number.self, from: Data(#"{"n":1.0}"#.utf8)) }
        }
    }
}
