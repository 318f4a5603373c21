/// Every read model the service keeps, by app: the one list the server registers and
/// `logbook-admin replay` rebuilds, so the two can never disagree about what exists.
public enum LogbookProjections {
    /// The accounts read models: credentials, sessions, profiles, reset tokens, the reset
    /// outbox and per-user activity.
    public static var accounts: [any Projection] { AccountProjections.all }

    /// The household app's read models.
    public static var household: [any Projection] { HouseholdProjections.all }

    /// The quiz app's read models.
    public static var quiz: [any Projection] { QuizProjections.all }

    /// The neighbourhood app's read models.
    public static var neighbourhood: [any Projection] { NeighbourhoodProjections.all }

    /// The workplace app's read models.
    public static var workplace: [any Projection] { WorkplaceProjections.all }

    /// The albums app's read models.
    public static var albums: [any Projection] { AlbumsProjections.all }

    /// The blob read models: uploads and what references each blob.
    public static var blobs: [any Projection] { BlobProjections.all }

    /// All of them.
    public static var all: [any Projection] { accounts + household + quiz + neighbourhood + workplace + albums + blobs }
}
