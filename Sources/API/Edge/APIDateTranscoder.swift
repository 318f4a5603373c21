import EventSourcing
import Foundation
import OpenAPIRuntime

/// The API's dates as the runtime's default transcoder writes and reads them (RFC 3339, UTC,
/// whole seconds: `Date.ISO8601FormatStyle()`), written by `RFC3339Date` instead of the format
/// style, which was a twentieth of answering a page of 50 reviews (docs/benchmarks.md). Dates the
/// fast path does not cover (before 1970, after 9999) and every date read are the format style's.
struct APIDateTranscoder: DateTranscoder {
    private let style = Date.ISO8601FormatStyle()

    func encode(_ date: Date) throws -> String {
        RFC3339Date.format(date, milliseconds: false) ?? style.format(date)
    }

    func decode(_ text: String) throws -> Date {
        try style.parse(text)
    }
}
