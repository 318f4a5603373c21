import Foundation

/// Parses the one date shape events are written with, `2026-11-21T20:30:00.250Z` (UTC, with
/// milliseconds or none), by hand: `Date.ISO8601FormatStyle` took a large share of decoding an
/// event. Anything else (an offset, other precisions, a leap second, a day the month does not
/// have, a year before the Gregorian calendar, which Foundation counts as Julian) returns nil,
/// and `EventJSON` falls back to the format style, so what is accepted does not change. The
/// result has the same bits as the format style's (a test checks 20,000 dates).
enum RFC3339Date {
    /// The date `text` names, or nil when it is not of the fast shape.
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    private static func parse(utf8 b: UnsafeBufferPointer<UInt8>) -> Date? {
        // YYYY-MM-DDTHH:MM:SS[.f…]Z
        guard b.count >= 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T"),
              b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"), b[b.count - 1] == UInt8(ascii: "Z"),
              let year = digits(b, 0, 4), let month = digits(b, 5, 2), let day = digits(b, 8, 2),
              let hour = digits(b, 11, 2), let minute = digits(b, 14, 2), let second = digits(b, 17, 2),
              year >= 1583, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var nanoseconds = 0
        if b.count > 20 {
            guard b.count == 24, b[19] == UInt8(ascii: "."), let milliseconds = digits(b, 20, 3) else { return nil }
            nanoseconds = milliseconds * 1_000_000
        }
        // As Foundation's Gregorian calendar adds them up: whole days since the reference date,
        // then the time of day with its fraction. Summing in another order differs in the last bit.
        let days = daysFromCivil(year: year, month: month, day: day) - referenceDay
        let timeOfDay = Double(hour * 3_600 + minute * 60 + second) + Double(nanoseconds) / 1_000_000_000
        return Date(timeIntervalSinceReferenceDate: Double(days * 86_400) + timeOfDay)
    }

    /// 2001-01-01, `Date`'s reference date, in days since 1970-01-01.
    private static let referenceDay = 11_323

    private static func digits(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for index in start..<(start + count) {
            let digit = Int(b[index]) - 48
            guard (0...9).contains(digit) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
