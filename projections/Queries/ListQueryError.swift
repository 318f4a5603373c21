/// Why a list query is refused: bad paging input from a client, or the read models failed.
public enum ListQueryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `limit` is outside `allowed`: bad client input.
    case limitOutOfRange(Int, allowed: ClosedRange<Int>)
    /// The cursor was not made by this query for this list: bad client input.
    case malformedCursor
    /// Reading the read models failed.
    case readModel(ReadModelError)

    /// The reason, for logs.
    public var description: String {
        switch self {
        case let .limitOutOfRange(limit, allowed): "limit \(limit) is not in \(allowed.lowerBound)...\(allowed.upperBound)"
        case .malformedCursor: "the cursor was not issued for this list"
        case let .readModel(error): "\(error)"
        }
    }
}
