/// What an append expects of a stream's current version (versions are 0-based).
public enum ExpectedVersion: Sendable, Hashable, CustomStringConvertible {
    /// No check.
    case any
    /// The stream must not exist yet.
    case noStream
    /// The stream must exist and its last event must have this version.
    case exact(UInt64)

    /// Whether a stream whose last version is `actual` (nil: no stream) satisfies the expectation.
    public func isSatisfied(by actual: UInt64?) -> Bool {
        switch self {
        case .any: true
        case .noStream: actual == nil
        case .exact(let version): actual == version
        }
    }

    public var description: String {
        switch self {
        case .any: "any"
        case .noStream: "no stream"
        case .exact(let version): "\(version)"
        }
    }
}
