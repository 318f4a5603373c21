import EventLog
import Projections

extension LogbookRuntime {
    /// The read models the server registers: every domain's.
    public static var standardProjections: [any Projection] { LogbookProjections.all }

    /// Queries over the accounts read models; the runtime must have been built with them
    /// (`standardProjections`).
    var accounts: AccountQueries<LMDBEventStore> { AccountQueries(engine: projections) }
}
