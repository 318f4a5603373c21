/// Why a neighbourhood query is refused: bad paging input from a client, or the read models failed.
public enum NeighbourhoodQueryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `limit` is outside `allowed` (a 400 at the API edge).
    case limitOutOfRange(Int, allowed: ClosedRange<Int>)
    /// The cursor was not made by this list (a 400 at the API edge).
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
