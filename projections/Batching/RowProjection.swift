/// A projection whose every change is rows added, each computed from its event alone: it never
/// reads its tables, overwrites what it stored, or deletes (an activity trail, a history).
///
/// Its rows can then be made before the transaction, beside the engine's thread: a batch read
/// ahead carries them (`DecodedEvents.preparedRows`), and the engine's thread only puts them. In an
/// initial build that thread is what everything waits for, while the other core decodes the
/// next batch with time to spare (docs/benchmarks.md, issue 9).
public protocol RowProjection: Projection {
    /// Adds the rows `event` stores; none for an event the projection ignores. Must not depend
    /// on anything but the event: it may run before the events ahead of it are applied.
    func rows(for event: ProjectedEvent, into rows: inout some ReadModelRowSink) throws
}

/// Where a `RowProjection`'s rows go: kept for the engine to put later (`ReadModelRows`), or
/// put at once (`DirectRows`).
public protocol ReadModelRowSink {
    /// Adds `value` under `key` in `table`.
    mutating func add<T: ReadModelValue>(_ value: T, at key: String, in table: String) throws
}

/// Rows put as they are added: a `RowProjection`'s `apply`, for an event no batch made rows for
/// ahead, costs what a `put` does.
struct DirectRows: ReadModelRowSink {
    let model: ReadModelWriter

    func add<T: ReadModelValue>(_ value: T, at key: String, in table: String) throws {
        try model.put(value, at: key, in: table)
    }
}

extension RowProjection {
    /// Stores the event's rows (`rows(for:into:)`), for an event no batch prepared ahead.
    public func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        var direct = DirectRows(model: model)
        try rows(for: event, into: &direct)
    }
}
