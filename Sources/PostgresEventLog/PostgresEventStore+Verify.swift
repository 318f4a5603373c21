import EventLog
import PostgresNIO

extension PostgresEventStore {
    /// Events read per page while verifying.
    static let verifyPageEvents = 1_000

    /// Checks the whole log as `LMDBEventStore.verify` checks a file: positions from 1 without a
    /// gap; every record's checksum, layout and position, and its columns against the record;
    /// every chain hash recomputed from the genesis, and the head row against the last event.
    /// Reads pages in position order while appends go on; it covers the head it read first.
    /// Each of `heads` (published earlier from `chainHead()`) must match the chain recomputed
    /// from the records alone, as `LMDBEventStore.verify(heads:)` checks them.
    public func verify(heads: [ChainHead] = []) async throws(EventLogError) -> VerifyReport {
        var report = VerifyReport()
        var pendingHeads = heads.sorted { $0.position < $1.position }
        let (head, headHash) = try await database { () async throws -> (UInt64, [UInt8]) in
            for try await (position, hash) in try await client.query("SELECT position, chain_hash FROM logbook_head", logger: logger)
                .decode((Int64, ByteBuffer).self) {
                return (UInt64(position), Array(buffer: hash))
            }
            throw EventLogError.corruptRecord(position: 0, reason: "logbook_head has no row")
        }
        // The chain from the records alone, and the stored hash before the current row: a rewritten
        // event is named once, where it is, while published heads see every change.
        var fromGenesis = ChainHash.genesis
        var storedBefore = ChainHash.genesis
        var expected: UInt64 = 1
        while expected <= head {
            let rows = try await database { () async throws -> [PostgresEventRow] in
                var rows: [PostgresEventRow] = []
                let query: PostgresQuery = """
                    SELECT position, stream_id, stream_version, type, record, chain_hash FROM logbook_events
                    WHERE position >= \(Int64(expected)) AND position <= \(Int64(head)) ORDER BY position LIMIT \(Self.verifyPageEvents)
                    """
                for try await row in try await client.query(query, logger: logger)
                    .decode((Int64, String, Int64, String, ByteBuffer, ByteBuffer).self) {
                    rows.append(PostgresEventRow(position: UInt64(row.0), streamID: row.1, streamVersion: UInt64(row.2), type: row.3,
                                    record: Array(buffer: row.4), chainHash: Array(buffer: row.5)))
                }
                return rows
            }
            guard !rows.isEmpty else {
                report.report("positions \(expected)...\(head) are missing")
                break
            }
            for row in rows {
                if row.position != expected {
                    report.report("positions \(expected)...\(row.position - 1) are missing")
                    report.noteChainDivergence(at: expected)
                }
                expected = row.position + 1
                report.eventsChecked += 1
                report.lastPosition = row.position
                do throws(EventLogError) {
                    let event = try row.record.withUnsafeBytes { bytes in
                        Result { () throws(EventLogError) in try RecordView(bytes, position: row.position).decode(position: row.position) }
                    }.get()
                    if event.streamID != row.streamID || event.streamVersion != row.streamVersion || event.type != row.type {
                        report.report("position \(row.position): columns disagree with the record")
                    }
                } catch {
                    report.report("\(error)")
                }
                let agreed = storedBefore == fromGenesis
                fromGenesis = ChainHash.after(fromGenesis, record: row.record)
                let fromStored = agreed ? fromGenesis : ChainHash.after(storedBefore, record: row.record)
                report.chainHashesChecked += 1
                if row.chainHash != fromStored {
                    report.report("position \(row.position): the event (or the hash before it) was rewritten after it was appended")
                    report.noteChainDivergence(at: row.position)
                }
                storedBefore = row.chainHash
                while let published = pendingHeads.first, published.position == row.position {
                    pendingHeads.removeFirst()
                    report.headsChecked += 1
                    if published.hash != fromGenesis {
                        report.report("head \(row.position): the log up to \(row.position) is not the published one")
                        report.noteChainDivergence(at: report.firstDivergingPosition.map { min($0, row.position) } ?? row.position)
                    }
                }
            }
        }
        if report.lastPosition != head {
            report.report("the head row says \(head), the last event is \(report.lastPosition)")
        } else if head > 0 && headHash != storedBefore {
            report.report("the head row's chain hash differs from the last event's")
        }
        for published in pendingHeads {
            report.report("head \(published.position): the log ends at \(report.lastPosition), before the published head")
        }
        if head > 0 { report.chainHead = ChainHead(position: report.lastPosition, hash: fromGenesis) }
        return report
    }
}

extension PostgresEventStore: TagKindListing {
    /// The chain's head as the head row holds it (position 0 and the genesis hash for an empty
    /// log, as LMDB's).
    public func chainHead() async throws(EventLogError) -> ChainHead {
        try await database {
            for try await (position, hash) in try await client.query("SELECT position, chain_hash FROM logbook_head", logger: logger)
                .decode((Int64, ByteBuffer).self) {
                return ChainHead(position: UInt64(position), hash: Array(buffer: hash))
            }
            throw EventLogError.corruptRecord(position: 0, reason: "logbook_head has no row")
        }
    }

    /// The kinds of tags in the log, as `LMDBEventStore.tagKinds` finds them: one index probe
    /// per kind (`kind;` sorts right after every `kind:…` in the "C" collation), not a scan.
    public func tagKinds(kindsMax: Int = 1_000) async throws(EventLogError) -> [String] {
        try await database {
            let query: PostgresQuery = """
                WITH RECURSIVE found(tag, probes) AS (
                    (SELECT tag, 1 FROM logbook_tags ORDER BY tag LIMIT 1)
                    UNION ALL
                    SELECT (SELECT t.tag FROM logbook_tags t
                            WHERE t.tag >= CASE WHEN strpos(found.tag, ':') > 0 THEN split_part(found.tag, ':', 1) || ';'
                                                ELSE found.tag || chr(1) END
                            ORDER BY t.tag LIMIT 1), probes + 1
                    FROM found WHERE found.tag IS NOT NULL AND probes < \(Int32(kindsMax))
                )
                SELECT split_part(tag, ':', 1) FROM found WHERE strpos(tag, ':') > 0
                """
            // A tag without a colon names no kind: it is stepped over, as LMDB's walk does.
            var kinds: [String] = []
            for try await (kind) in try await client.query(query, logger: logger).decode(String.self) {
                kinds.append(kind)
            }
            return kinds
        }
    }
}
