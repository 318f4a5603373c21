/// The workplace read models, for the composition root to register with a `ProjectionEngine`
/// and for `WorkplaceQueries` to read.
public enum WorkplaceProjections {
    /// Organisations with their directory entry, members, requests, forms, reviews and news.
    public static let organisations = WorkplaceOrganisationsProjection()

    /// All of them.
    public static var all: [any Projection] { [organisations] }
}
