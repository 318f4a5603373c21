/// A projection whose every change is rows added, each computed from its event alone: it never
/// reads its tables, overwrites what it stored, or deletes (an activity trail, a history).
///
/// The engine makes a batch's rows in one pass and stores them in key order
/// (`ReadModelWriter.store`), as it stores held writes. So they can be made beside the engine's
/// thread: a batch read ahead carries them (`DecodedEvents.rowsMadeAhead`), and the engine's
/// thread only puts them. In an initial build that thread is what everything waits for, while the
/// other core decodes the next batch with time to spare (`BatchShares`, docs/benchmarks.md).
public protocol RowProjection: Projection {
    /// Adds the rows `event` stores; none for an event the projection ignores. Must not depend
    /// on anything but the event: it may run before the events ahead of it are applied.
    func rows(for event: ProjectedEvent, into rows: inout ReadModelRows) throws
}

extension RowProjection {
    /// Stores the event's rows (`rows(for:into:)`): the engine stores a batch's at once instead.
    public func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        var rows = ReadModelRows()
        try self.rows(for: event, into: &rows)
        try model.store(rows)
    }
}
