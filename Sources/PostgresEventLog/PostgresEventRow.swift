/// One row of `logbook_events`: the record as stored, its chain hash, and the columns indexed
/// beside it (which must agree with the record; `verify` checks that they do).
struct PostgresEventRow {
    var position: UInt64
    var streamID: String
    var streamVersion: UInt64
    var type: String
    var record: [UInt8]
    var chainHash: [UInt8]
}
