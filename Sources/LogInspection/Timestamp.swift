import Foundation

/// A UTC instant in whole microseconds, the log's own resolution, so that a `recordedAt` this
/// tool prints and an operator passes back to `--since` (or the admin API's `from`) selects
/// exactly that event.
public struct Timestamp: Sendable, Hashable, Comparable {
    /// Microseconds since 1970-01-01T00:00:00Z.
    public let microsecondsSince1970: Int64

    /// The instant `microsecondsSince1970` microseconds after the epoch.
    public init(microsecondsSince1970: Int64) {
        self.microsecondsSince1970 = microsecondsSince1970
    }

    /// The instant of `date`, rounded to the nearest microsecond: the log stores whole
    /// microseconds and `Date` carries them as a binary fraction that may fall just short.
    public init(_ date: Date) {
        microsecondsSince1970 = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    }

    /// Parses RFC 3339 (`2025-01-31T08:15:00Z`, `2025-01-31T09:15:00.25+01:00`) or a bare date
    /// (`2025-01-31`, midnight UTC). A time without a zone is rejected rather than guessed.
    public init?(rfc3339 text: String) {
        let pattern = /(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2}))?/
        guard let match = text.wholeMatch(of: pattern) else { return nil }
        let (_, year, month, day, hour, minute, second, fraction, zone) = match.output
        var parts = tm()
        parts.tm_year = Int32(year)! - 1900
        parts.tm_mon = Int32(month)! - 1
        parts.tm_mday = Int32(day)!
        parts.tm_hour = hour.map { Int32($0)! } ?? 0
        parts.tm_min = minute.map { Int32($0)! } ?? 0
        parts.tm_sec = second.map { Int32($0)! } ?? 0
        guard (0...11).contains(parts.tm_mon), (1...31).contains(parts.tm_mday), (0...23).contains(parts.tm_hour),
              (0...59).contains(parts.tm_min), (0...59).contains(parts.tm_sec)
        else { return nil }
        let requestedDay = parts.tm_mday
        let seconds = Int64(timegm(&parts))
        // timegm normalises 2025-02-30 to March 2nd; a changed day means the date does not exist.
        guard parts.tm_mday == requestedDay else { return nil }
        let digits = fraction.map { String($0.prefix(6)) } ?? ""
        let microseconds = Int64(digits + String(repeating: "0", count: 6 - digits.count))!
        var offsetSeconds: Int64 = 0
        if let zone, zone.count == 6 {
            let hours = Int64(zone.dropFirst().prefix(2))!, minutes = Int64(zone.suffix(2))!
            guard hours <= 23, minutes <= 59 else { return nil }
            offsetSeconds = (zone.first == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
        }
        microsecondsSince1970 = (seconds - offsetSeconds) * 1_000_000 + microseconds
    }

    /// RFC 3339 in UTC with all six fractional digits: `2025-01-31T08:15:00.000000Z`.
    public var rfc3339: String {
        // Floor division, so instants before 1970 still get a fraction in 0..<1_000_000.
        var seconds = microsecondsSince1970 / 1_000_000
        var microseconds = microsecondsSince1970 % 1_000_000
        if microseconds < 0 {
            seconds -= 1
            microseconds += 1_000_000
        }
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ",
            parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec,
            Int32(microseconds)
        )
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.microsecondsSince1970 < rhs.microsecondsSince1970
    }
}
