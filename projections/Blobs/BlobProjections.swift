/// The blob read models, for the composition root to register with a `ProjectionEngine` and
/// for `BlobQueries` to read.
public enum BlobProjections {
    /// Uploads with their uploaders, and the live entities referencing each blob.
    public static let references = BlobReferencesProjection()

    /// All of them.
    public static var all: [any Projection] { [references] }
}
