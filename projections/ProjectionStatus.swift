/// How far one projection has got, for `GET /v1/admin/projections` and `logbook-admin`.
public struct ProjectionStatus: Sendable, Equatable, Codable {
    /// The projection's name.
    public var name: String
    /// The version of the copy queries read.
    public var version: Int
    /// The generation queries read.
    public var generation: Int
    /// The last log position the served copy includes.
    public var checkpoint: UInt64
    /// Events in the log not yet in the served copy.
    public var lag: UInt64
    /// How far a rebuild in progress has got, if one is.
    public var rebuildCheckpoint: UInt64?
    /// Whether queries are answered.
    public var state: ProjectionState = .serving
    /// The event that failed, while `state` is `.failed`.
    public var failure: ProjectionFailure? = nil
    /// Why the last rebuild failed, until one succeeds.
    public var lastRebuildError: String? = nil
}
