import EventLog
import EventSourcing

/// A named fold from events to a read model: tables of binary values (`ReadModelValue`) under string keys.
///
/// `apply` sees every event of the log (of the domains it `reads`) once, in order, inside the
/// transaction that also stores the projection's checkpoint, so a read model never holds half an
/// event or an event twice.
/// It must be deterministic: a rebuild from position 1 must produce the same tables.
public protocol Projection: Sendable {
    /// Stable name: part of table names and of `logbook-admin replay --projection`.
    var name: String { get }
    /// Bump when `apply` changes meaning or a stored value's layout changes (`ReadModelValue`
    /// carries no version of its own); a stored copy of another version is rebuilt on start,
    /// and is neither read nor written by this version meanwhile.
    var version: Int { get }
    /// The tables `apply` writes.
    var tables: [String] { get }
    /// The domains whose events `apply` reads (`decoded(as:)`), or nil for every event (a
    /// projection that reads the records themselves, whatever their domain). The engine hands
    /// `apply` only these domains' events: a server registers fifteen projections, and passing
    /// each of them every event of every app was a fifth of a rebuild (docs/benchmarks.md). A
    /// debug build checks that `apply` decodes no domain it did not name. Each is the type the
    /// events are decoded as, once per batch for every projection naming it: a domain's
    /// `DomainEvent`, or a type that decodes less of it (`WorkplaceProjectionInput`).
    var reads: [any DecodableDomainEvent.Type]? { get }
    /// Tables among `tables` that `apply` writes by key (`put`, `delete`) and reads, if at all,
    /// by key: their writes of a batch wait for its end and are then stored in key order, the
    /// last write under each key only (`HeldWrites`, stored as a `RowProjection`'s rows are).
    /// A read by key of one (`value`, `insert`'s answer) is answered from the held write under
    /// its key, or from the table when none waits; a scan stores what the table holds first, so
    /// it stays correct, only slower.
    var heldTables: Set<String> { get }
    /// Folds one event into the read model; ignores events it does not care about.
    func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws
}

extension Projection {
    /// Every event, unless a projection names its domains.
    public var reads: [any DecodableDomainEvent.Type]? { nil }
    /// None, unless a projection names them.
    public var heldTables: Set<String> { [] }
}
