/// The albums read models, for the composition root to register with a `ProjectionEngine` and
/// for `AlbumsQueries` to read.
public enum AlbumsProjections {
    /// Groups with their members, photos and messages, and the accounts holding member addresses.
    public static let groups = AlbumsGroupsProjection()

    /// All of them.
    public static var all: [any Projection] { [groups] }
}
