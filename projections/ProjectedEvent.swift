import EventLog
import EventSourcing
import Foundation
import LMDB

/// An event as a projection sees it: the log's record, and its domain event decoded at most once
/// per batch, however many projections ask for it.
///
/// Every projection sees every event, and a server registers fifteen of them: decoding the JSON
/// once per projection was most of a rebuild's time (docs/benchmarks.md, issue 9).
///
/// It holds the batch and an index, not a copy of the record: fifteen projections copying a
/// record of a dozen reference-counted fields for every event was a retain storm.
public struct ProjectedEvent {
    private let index: Int
    private let batch: DecodedEvents

    init(_ batch: DecodedEvents, at index: Int) {
        self.batch = batch
        self.index = index
    }

    /// The record as the log stores it.
    public var record: RecordedEvent { batch.records[index] }
    /// The record's global position.
    public var position: UInt64 { batch.records[index].position }
    /// The record's event type.
    public var type: String { batch.records[index].type }
    /// The record's stream.
    public var streamID: String { batch.records[index].streamID }
    /// When the log recorded it.
    public var recordedAt: Date { batch.records[index].recordedAt }
    /// Who caused it.
    public var actor: String { batch.records[index].actor }

    /// The event as `E`, or nil when it is another domain's.
    public func decoded<E: DecodableDomainEvent>(as type: E.Type) throws -> E? {
        try batch.event(E.self, at: index)
    }
}

/// One batch's records and what each decoded to, by domain event type.
///
/// Unchecked: it is mutable without a lock, and safe because the engine touches it only from
/// the read-model write closures of one batch, which run one after another on the engine's
/// thread before `write` returns. The compiler cannot see that a closure passed to `write` runs
/// synchronously; a lock here would cost a lock per projection per event.
final class DecodedEvents: @unchecked Sendable {
    let records: [RecordedEvent]
    /// What sealed fields are opened with (the engine's `personalData`).
    let keyring: (any PersonalDataKeyring)?
    /// Each record's domain (its type name up to the first dot), as an index into `domains`:
    /// worked out once per batch, so that handing each projection only its domains' events
    /// costs an array lookup per projection and event.
    let domainIndices: [Int]
    /// The distinct domains of the batch; a batch meets a handful.
    let domains: [Substring]
    /// The domains the projection being applied named (`Projection.reads`), for the debug
    /// check that it decodes no other; nil while none is being applied, or it reads everything.
    var reading: [String]?
    /// One box per domain event type asked for; a batch meets a handful, so a linear search
    /// beats hashing, and the box's static type spares a dynamic cast per lookup.
    private var decodedByType: [(type: ObjectIdentifier, box: AnyObject)] = []
    /// The rows each `RowProjection` makes of the batch, by projection name, with their storing
    /// order, when the batch was read ahead (`decodeAhead`); set once, before the batch reaches
    /// the engine.
    private(set) var rowsMadeAhead: [(projection: String, rows: ReadModelRows, order: [Int32])] = []
    /// Whether `decodeAhead` was asked to make rows, and the CPU time they took: work taken off
    /// the engine's side, which `BatchShares` weighs as such.
    private(set) var madeRowsAhead = false
    private(set) var rowsCPU = Duration.zero

    /// What each record of `E`'s domain decoded to as `E`: nil while not decoded yet. Raw
    /// storage, so that `decodeAhead`'s slices fill disjoint indices from several threads at once
    /// (an array property would be one exclusive access).
    private final class Decoded<E: DecodableDomainEvent> {
        /// `E.domain`'s index in `domains`; nil when the batch holds none of its events, and then
        /// `values` is empty: a projection asks for every domain it reads, and most batches meet
        /// few of them.
        let domain: Int?
        let values: UnsafeMutableBufferPointer<E??>
        init(domain: Int?, count: Int) {
            self.domain = domain
            values = .allocate(capacity: domain == nil ? 0 : count)
            values.initialize(repeating: nil)
        }
        deinit {
            values.deinitialize()
            values.deallocate()
        }
    }

    /// `records`, decoded when asked for with their sealed fields opened with `keyring`.
    init(_ records: [RecordedEvent], opening keyring: (any PersonalDataKeyring)?) {
        self.records = records
        self.keyring = keyring
        var domains: [Substring] = []
        var indices: [Int] = []
        indices.reserveCapacity(records.count)
        // By index, reading only the type: `for record in records` copied each record, a retain
        // and a release of each of its dozen references (7% of a rebuild's samples). A record of
        // the previous one's type (the log hands out one string per repeated type) is of its domain.
        var previousType = ""
        for index in records.indices {
            let type = records[index].type
            if index > 0, type == previousType {
                indices.append(indices[index - 1])
                continue
            }
            previousType = type
            let domain = RecordedEvent.domain(ofType: type)
            if let known = domains.firstIndex(of: domain) {
                indices.append(known)
            } else {
                indices.append(domains.count)
                domains.append(domain)
            }
        }
        self.domains = domains
        domainIndices = indices
    }

    /// For each of `domains`, whether a projection reading `reads` wants its events; nil when it
    /// wants every event.
    func wanted(by reads: [any DecodableDomainEvent.Type]?) -> [Bool]? {
        guard let reads else { return nil }
        return domains.map { domain in reads.contains { $0.domain == domain } }
    }

    /// Decodes every record of a domain one of `types` names, as that type, before any projection
    /// asks: for a batch made ready beside the engine's thread while it applies the one before.
    /// The records are cut into `slices` runs decoded at once, one per core: in a rebuild of one
    /// projection the decoding, not the applying, is what the engine waits for. A record that
    /// does not decode is left for the projection that asks for it, which then gets the error as
    /// it would have. Each slice then makes the rows of `rowProjections` for its records
    /// (`rowsMadeAhead`, `rowsCPU`; their keys are checked by the engine, which knows what LMDB
    /// stores). Returns the CPU time the slices' decoding took in all.
    func decodeAhead(
        _ types: some Sequence<any DecodableDomainEvent.Type>, rowProjections: [any RowProjection] = [], slices: Int
    ) async -> Duration {
        var distinct: [any DecodableDomainEvent.Type] = []
        for type in types where !distinct.contains(where: { ObjectIdentifier($0) == ObjectIdentifier(type) }) {
            distinct.append(type)
            makeBox(type)  // here, so the slices only read `decodedByType`
        }
        let runs = Self.runs(of: records.count, slices: slices)
        let types = distinct
        madeRowsAhead = !rowProjections.isEmpty
        return await withTaskGroup(of: (slice: Int, rows: [ReadModelRows?], decodeCPU: Duration, rowsCPU: Duration).self) { group in
            for (slice, run) in runs.enumerated() {
                group.addTask {
                    // Synchronous: the slice stays on one thread, whose CPU time it is.
                    let decodeCPU = ThreadCPUTime.measure { for type in types { self.decodeAll(type, in: run) } }.1
                    let (rows, rowsCPU) = ThreadCPUTime.measure {
                        rowProjections.map { try? self.rows(of: $0, in: run, keyBytesMax: .max) }
                    }
                    return (slice, rows, decodeCPU, rowsCPU)
                }
            }
            var bySlice = [[ReadModelRows?]](repeating: [], count: runs.count)
            var decodeCPU = Duration.zero
            for await done in group {
                bySlice[done.slice] = done.rows
                decodeCPU += done.decodeCPU
                rowsCPU += done.rowsCPU
            }
            // A projection whose rows failed in any slice gets none: the engine then makes them
            // itself, meets the failure and reports it at its event.
            for (n, projection) in rowProjections.enumerated() {
                let slices = bySlice.map { $0[n] }
                // An empty page has no slice (a read ahead past the log's end): nothing made ahead.
                guard !slices.isEmpty, slices.allSatisfy({ $0 != nil }) else { continue }
                let ((rows, order), cpu) = ThreadCPUTime.measure {
                    var rows = slices[0]!
                    for slice in slices.dropFirst() { rows.append(contentsOf: slice!) }
                    return (rows, ReadModelWriter.storingOrder(of: rows))
                }
                rowsCPU += cpu
                rowsMadeAhead.append((projection.name, rows, order))
            }
            return decodeCPU
        }
    }

    /// The rows `projection` makes of the records of `run` (those of the domains it reads). A key
    /// LMDB cannot store (empty, or over `keyBytesMax` bytes) throws its `LMDBError.keySize`, and
    /// whatever throws is wrapped with its record's index (`RowsFailure`).
    func rows(of projection: any RowProjection, in run: Range<Int>, keyBytesMax: Int) throws(RowsFailure) -> ReadModelRows {
        let wanted = wanted(by: projection.reads)
        var rows = ReadModelRows()
        for index in run where wanted?[domainIndices[index]] ?? true {
            let before = rows.count
            do {
                try projection.rows(for: ProjectedEvent(self, at: index), into: &rows)
                if let bytes = rows.unstorableKeyBytes(from: before, keyBytesMax: keyBytesMax) { throw LMDBError.keySize(bytes: bytes) }
            } catch {
                throw RowsFailure(index: index, error: error)
            }
        }
        return rows
    }

    /// What `rows(of:in:keyBytesMax:)` throws: the error, and the index of the record it came from.
    struct RowsFailure: Error {
        let index: Int
        let error: any Error
    }

    /// The rows made ahead for the projection named `projection`, if the batch has them.
    func rowsMadeAhead(by projection: String) -> (rows: ReadModelRows, order: [Int32])? {
        rowsMadeAhead.first { $0.projection == projection }.map { ($0.rows, $0.order) }
    }

    /// `0..<count` cut into at most `slices` runs of about equal length, none empty.
    static func runs(of count: Int, slices: Int) -> [Range<Int>] {
        let slices = max(1, min(slices, count))
        return (0..<slices).map { slice in (count * slice / slices)..<(count * (slice + 1) / slices) }.filter { !$0.isEmpty }
    }

    private func makeBox<E: DecodableDomainEvent>(_ type: E.Type) {
        _ = box(E.self)
    }

    private func decodeAll<E: DecodableDomainEvent>(_ type: E.Type, in run: Range<Int>) {
        let decoded = box(E.self)
        guard let domain = decoded.domain else { return }
        for index in run where domainIndices[index] == domain && decoded.values[index] == nil {
            guard let value = try? decode(E.self, at: index) else { continue }
            decoded.values[index] = .some(value)
        }
    }

    /// The box of `E`'s values, made on first use. Makes boxes only on the engine's thread, or
    /// before `decodeAhead`'s slices start.
    private func box<E: DecodableDomainEvent>(_ type: E.Type) -> Decoded<E> {
        let key = ObjectIdentifier(E.self)
        if let found = decodedByType.first(where: { $0.type == key }) {
            return unsafeDowncast(found.box, to: Decoded<E>.self)  // boxes are stored under their own type
        }
        let decoded = Decoded<E>(domain: domains.firstIndex { $0 == E.domain }, count: records.count)
        decodedByType.append((key, decoded))
        return decoded
    }

    func event<E: DecodableDomainEvent>(_ type: E.Type, at index: Int) throws -> E? {
        assert(reading.map { $0.contains(E.domain) } ?? true, "a projection decodes \(E.domain) events without naming the domain in `reads`")
        let decoded = box(E.self)
        // Another domain's record is never `E`: answered without decoding or storing anything.
        guard domainIndices[index] == decoded.domain else { return nil }
        if let known = decoded.values[index] { return known }
        let value = try decode(E.self, at: index)
        decoded.values[index] = .some(value)
        return value
    }

    private func decode<E: DecodableDomainEvent>(_ type: E.Type, at index: Int) throws -> E? {
        // The record's fields one by one: copying the whole record retains a dozen references.
        try E.decode(typeName: records[index].type, schemaVersion: records[index].schemaVersion, data: records[index].data, opening: keyring)
    }
}

extension RecordedEvent {
    /// The domain of the stored type name `type`: its part before the first dot.
    static func domain(ofType type: String) -> Substring {
        let name = Substring(type)
        return name.firstIndex(of: ".").map { name[..<$0] } ?? name
    }
}
