/// What `verify` found.
public struct VerifyReport: Sendable, Equatable {
    /// Records read and checked.
    public var eventsChecked = 0
    /// The last position in the log.
    public var lastPosition: UInt64 = 0
    /// Index entries checked, by index.
    public var indexEntriesChecked: [String: Int] = [:]
    /// Every problem found, in log order, up to `problemsListedMax`.
    public var problems: [String] = []
    /// All problems found, including those not listed.
    public var problemCount = 0

    /// Problems listed in full; the rest are only counted.
    public static let problemsListedMax = 1_000

    /// True when nothing is damaged.
    public var isHealthy: Bool { problemCount == 0 }

    mutating func report(_ problem: String) {
        problemCount += 1
        if problems.count < Self.problemsListedMax { problems.append(problem) }
    }
}
