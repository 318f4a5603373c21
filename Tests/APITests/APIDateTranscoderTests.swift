import Foundation
import Testing
@testable import API

/// The API's dates are written by hand and must be the text the runtime's default transcoder
/// (`Date.ISO8601FormatStyle()`) wrote before: clients and stored responses compare them.
@Suite("API dates")
struct APIDateTranscoderTests {
    private let transcoder = APIDateTranscoder()
    private let style = Date.ISO8601FormatStyle()

    @Test func everyDateIsWrittenAsTheFormatStyleWritesIt() throws {
        var generator = SystemRandomNumberGenerator()
        // Microseconds from 1900 to 2200: fractions of every kind, which both floor away.
        for _ in 0..<20_000 {
            let microseconds = Int64.random(in: -2_208_988_800_000_000...7_258_118_400_000_000, using: &generator)
            let date = Date(timeIntervalSince1970: Double(microseconds) / 1_000_000)
            #expect(try transcoder.encode(date) == style.format(date))
        }
    }

    @Test(arguments: [
        0, -0.001, -1, 0.999_999, 59.999, 86_399.999_999, 951_782_400, 1_763_757_000.25, 253_402_300_799.999,
        253_402_300_800, -62_135_596_800, 1e12,
    ])
    func edgeDatesAreWrittenAsTheFormatStyleWritesThem(_ seconds: Double) throws {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(try transcoder.encode(date) == style.format(date))
    }

    @Test func aWrittenDateReadsBackToItsWholeSecond() throws {
        let date = Date(timeIntervalSince1970: 1_763_757_000.75)
        let text = try transcoder.encode(date)
        #expect(text == "2025-11-21T20:30:00Z")
        #expect(try transcoder.decode(text) == Date(timeIntervalSince1970: 1_763_757_000))
        #expect(throws: (any Error).self) { try transcoder.decode("21 November 2025") }
    }
}
