import ArgumentParser
import EventLog
import LogInspection
import PostgresEventLog
import Projections

/// What `replay --as-of` names: a log position, or a time that resolves to the last position
/// recorded at or before it (`PointInTime.position(atOrBefore:in:)`).
enum AsOfPoint: ExpressibleByArgument, Equatable {
    case position(UInt64)
    case time(Timestamp)

    /// A decimal position, or an RFC 3339 time (or bare date, midnight UTC).
    init?(argument: String) {
        if argument.allSatisfy(\.isASCIIDigit), let position = UInt64(argument) {
            self = .position(position)
        } else if let time = Timestamp(rfc3339: argument) {
            self = .time(time)
        } else {
            return nil
        }
    }

    /// The position in `log` this point names.
    func resolve(in log: EventLogBackend) async throws(PointInTimeError) -> UInt64 {
        switch self {
        case let .position(position): position
        case let .time(time): try await PointInTime.position(atOrBefore: time.microsecondsSince1970, in: log)
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
