/// What `verify` found.
public struct VerifyReport: Sendable, Equatable {
    /// Records read and checked.
    public var eventsChecked = 0
    /// The last position in the log.
    public var lastPosition: UInt64 = 0
    /// Index entries checked, by index.
    public var indexEntriesChecked: [String: Int] = [:]
    /// Chain hashes stored (one per event in a healthy log).
    public var chainHashesChecked = 0
    /// The chain recomputed from the records, at the last position (nil for a log without a
    /// chain, written before it and opened read-only).
    public var chainHead: ChainHead?
    /// Published heads compared with the recomputed chain.
    public var headsChecked = 0
    /// The first position where the log is not what its stored chain or a published head says:
    /// where a rewrite begins (nil when the chain holds).
    public var firstDivergingPosition: UInt64?
    /// Every problem found, in log order, up to `problemsListedMax`.
    public var problems: [String] = []
    /// All problems found, including those not listed.
    public var problemCount = 0

    /// Problems listed in full; the rest are only counted.
    public static let problemsListedMax = 1_000

    /// True when nothing is damaged.
    package init() {}

    public var isHealthy: Bool { problemCount == 0 }

    package mutating func noteChainDivergence(at position: UInt64) {
        firstDivergingPosition = min(firstDivergingPosition ?? position, position)
    }

    package mutating func report(_ problem: String) {
        problemCount += 1
        if problems.count < Self.problemsListedMax { problems.append(problem) }
    }
}
