import Foundation
import Testing

@testable import EventSourcing

/// The hand-written parser must agree with the format style it stands in front of, to the bit:
/// a date decoded differently would make a rebuild differ from the live read models.
@Suite("RFC 3339 dates")
struct RFC3339DateTests {
    /// What `EventJSON` accepted before the fast path: the format style, then plain ISO 8601.
    private func slow(_ text: String) -> Date? {
        (try? Date(text, strategy: EventJSON.rfc3339)) ?? (try? Date(text, strategy: .iso8601))
    }

    @Test func everyDateEncodeWritesParsesToTheSameBitsAsTheFormatStyle() {
        var generator = SystemRandomNumberGenerator()
        var checked = 0
        // Milliseconds from 1900 to 2200, as `EventJSON.encode` writes them.
        for _ in 0..<20_000 {
            let milliseconds = Int64.random(in: -2_208_988_800_000...7_258_118_400_000, using: &generator)
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
            let text = date.formatted(EventJSON.rfc3339)
            let fast = RFC3339Date.parse(text)
            #expect(fast != nil, "\(text) takes the fast path")
            #expect(fast?.timeIntervalSinceReferenceDate.bitPattern == slow(text)?.timeIntervalSinceReferenceDate.bitPattern, "\(text)")
            checked += 1
        }
        #expect(checked == 20_000)
    }

    @Test(arguments: [
        "2026-11-21T20:30:00.250Z", "2026-11-21T20:30:00Z", "2024-02-29T00:00:00.000Z", "1970-01-01T00:00:00.000Z",
        "1969-12-31T23:59:59.999Z", "2000-12-31T21:29:55.758Z", "2001-01-01T00:00:00.001Z", "1583-01-01T00:00:00.000Z",
        "9999-12-31T23:59:59.999Z", "2000-02-29T12:00:00.000Z",
    ])
    func edgeDatesAgree(_ text: String) {
        let fast = RFC3339Date.parse(text)
        #expect(fast != nil)
        #expect(fast?.timeIntervalSinceReferenceDate.bitPattern == slow(text)?.timeIntervalSinceReferenceDate.bitPattern)
    }

    /// Shapes the fast path leaves to the format style: it must not accept what that refuses,
    /// nor read an offset or a leap second its own way.
    @Test(arguments: [
        "2026-11-21T20:30:00.250+01:00", "2026-02-30T00:00:00.000Z", "2023-02-29T00:00:00Z", "2026-13-01T00:00:00Z",
        "2026-11-21T24:00:00Z", "2026-11-21T20:60:00Z", "2026-11-21T20:30:60Z", "2026-11-21 20:30:00Z", "2026-11-21T20:30:00.Z",
        "2026-11-21T20:30:00.1234567890Z", "2026-11-21T20:30:00z", "2026-01-01T00:00:00.5Z", "2026-01-01T00:00:00.123456Z",
        "1582-10-15T00:00:00.000Z", "0001-01-01T00:00:00.000Z", "26-11-21T20:30:00Z", "２026-11-21T20:30:00Z", "",
        "2026-11-21T20:30:00.25a0Z",
    ])
    func otherShapesAreLeftToTheFormatStyle(_ text: String) {
        #expect(RFC3339Date.parse(text) == nil)
    }

    @Test func anEventDateDecodesThroughTheFastPathAndTheFallback() throws {
        struct Payload: Codable, Equatable { var at: Date }
        let withOffset = try EventJSON.decode(Payload.self, from: Data(#"{"at":"2026-11-21T21:30:00.250+01:00"}"#.utf8))
        let inUTC = try EventJSON.decode(Payload.self, from: Data(#"{"at":"2026-11-21T20:30:00.250Z"}"#.utf8))
        #expect(withOffset == inUTC)
        let written = Payload(at: Date(timeIntervalSince1970: 1_763_757_000.25))
        #expect(try EventJSON.decode(Payload.self, from: EventJSON.encode(written)) == written)
    }

    /// The hand-written formatter must write exactly what the format style writes.
    @Test func everyDateIsFormattedAsTheFormatStyleFormatsIt() {
        var generator = SystemRandomNumberGenerator()
        for index in 0..<20_000 {
            // Whole milliseconds (as parsed dates are) and arbitrary doubles (as clocks give).
            let interval = index % 2 == 0
                ? Double(Int64.random(in: 0...4_000_000_000_000, using: &generator)) / 1_000
                : Double.random(in: 0...4_000_000_000, using: &generator)
            let date = Date(timeIntervalSince1970: interval)
            #expect(RFC3339Date.format(date) == date.formatted(EventJSON.rfc3339), "\(interval)")
        }
    }

    @Test(arguments: [0, 0.0005, 0.999, 0.9995, 0.99999999, 86_399.999, 951_782_400, 1_763_757_000.25, 253_402_300_799.999])
    func edgeInstantsAreFormattedAsTheFormatStyleFormatsThem(_ interval: Double) {
        let date = Date(timeIntervalSince1970: interval)
        #expect(RFC3339Date.format(date) == date.formatted(EventJSON.rfc3339))
    }

    @Test func datesOutsideTheFastRangeAreLeftToTheFormatStyle() {
        #expect(RFC3339Date.format(Date(timeIntervalSince1970: -0.001)) == nil)
        #expect(RFC3339Date.format(Date(timeIntervalSince1970: 253_402_300_800)) == nil)
    }
}
