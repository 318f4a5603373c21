/// Whether a projection's queries are answered, as `GET /v1/admin/projections`, `/health/ready`
/// and `logbook-admin stats` show it.
public enum ProjectionState: String, Sendable, Equatable, Codable {
    /// Queries read the served copy, which the live runner keeps current.
    case serving
    /// The served copy was built by another version of the projection: queries answer
    /// `ReadModelError.rebuilding` until a rebuild of this version is swapped in.
    case rebuilding
    /// Applying an event threw: the runner skips the projection, its checkpoint stays at the last
    /// good position and queries answer `ReadModelError.unavailable` until a rebuild recovers it.
    case failed
}
