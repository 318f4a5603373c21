/// The neighbourhood read models, for the composition root to register with a
/// `ProjectionEngine` and for `NeighbourhoodQueries` to read.
public enum NeighbourhoodProjections {
    /// Reports, their lists, threads, followers and the followers' notifications.
    public static let reports = NeighbourhoodReportsProjection()

    /// All of them.
    public static var all: [any Projection] { [reports] }
}
