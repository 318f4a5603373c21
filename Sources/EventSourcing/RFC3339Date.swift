import Foundation

/// Parses the one date shape events are written with, `2026-11-21T20:30:00.250Z` (UTC, with
/// milliseconds or none), by hand: `Date.ISO8601FormatStyle` took a large share of decoding an
/// event. Anything else (an offset, other precisions, a leap second, a day the month does not
/// have, a year before the Gregorian calendar, which Foundation counts as Julian) returns nil,
/// and `EventJSON` falls back to the format style, so what is accepted does not change. The
/// result has the same bits as the format style's (a test checks 20,000 dates).
public enum RFC3339Date {
    /// The date `text` names, or nil when it is not of the fast shape.
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// The date the UTF-8 bytes `b` name, or nil when they are not of the fast shape.
    static func parse(utf8 b: UnsafeBufferPointer<UInt8>) -> Date? {
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

    /// `date` as `EventJSON.rfc3339` formats it (UTC, milliseconds floored), or without
    /// `milliseconds` as `Date.ISO8601FormatStyle()` does (the API's dates: whole seconds,
    /// floored); nil outside 1970–9999, which the caller leaves to the format style: formatting
    /// through it was an eighth of encoding an event, and a twentieth of answering a page of
    /// reviews. Same text as the format style (tests check 20,000 dates each way).
    public static func format(_ date: Date, milliseconds withMilliseconds: Bool = true) -> String? {
        let interval = date.timeIntervalSince1970
        guard interval >= 0, interval < 253_402_300_800 else { return nil }  // 1970-01-01 ..< 10000-01-01
        let seconds = Int(interval.rounded(.down))
        let milliseconds = min(999, Int(((interval - Double(seconds)) * 1_000).rounded(.down)))
        let (year, month, day) = civil(fromDays: seconds / 86_400)
        let timeOfDay = seconds % 86_400
        var text = [UInt8]()
        text.reserveCapacity(24)
        func append(_ value: Int, width: Int, then separator: UInt8?) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                text.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
            if let separator { text.append(separator) }
        }
        append(year, width: 4, then: UInt8(ascii: "-"))
        append(month, width: 2, then: UInt8(ascii: "-"))
        append(day, width: 2, then: UInt8(ascii: "T"))
        append(timeOfDay / 3_600, width: 2, then: UInt8(ascii: ":"))
        append(timeOfDay % 3_600 / 60, width: 2, then: UInt8(ascii: ":"))
        if withMilliseconds {
            append(timeOfDay % 60, width: 2, then: UInt8(ascii: "."))
            append(milliseconds, width: 3, then: UInt8(ascii: "Z"))
        } else {
            append(timeOfDay % 60, width: 2, then: UInt8(ascii: "Z"))
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The proleptic Gregorian date `days` after 1970-01-01, for `days` ≥ 0 (H. Hinnant's
    /// `civil_from_days`).
    private static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

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
