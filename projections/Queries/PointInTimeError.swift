/// Why a read model could not be computed as of a point in the log.
public enum PointInTimeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Position 0 is before the first event: nothing to compute (positions start at 1).
    case positionZero
    /// The position asked for is past the log's head.
    case beyondHead(position: UInt64, head: UInt64)
    /// The time asked for is before the first event (or the log is empty).
    case beforeFirstEvent(microsecondsSince1970: Int64)
    /// Building or reading the temporary copy failed.
    case readModel(ReadModelError)

    public var description: String {
        switch self {
        case .positionZero: "position 0 is before the first event; positions start at 1"
        case let .beyondHead(position, head): "position \(position) is beyond the log's head (\(head))"
        case .beforeFirstEvent: "no event was recorded at or before that time"
        case let .readModel(error): "\(error)"
        }
    }
}
