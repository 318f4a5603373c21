import LMDB

extension LMDBEventStore {
    /// The kinds of the tags in the log, in byte order: each `kind:value` tag's text before its
    /// first colon (`house`, `user`, `report`…), once each. Tags without a colon name no kind.
    ///
    /// Lets an auditor ask for an id without knowing what it is: the tags `<kind>:<id>` of every
    /// kind are then read through the tag index. It costs one seek per kind, not a walk over
    /// every tag: after a kind is found, the cursor jumps past all of that kind's tags.
    /// At most `kindsMax` seeks are made (tags without a colon take one each), so the answer is
    /// bounded however the log is tagged.
    public func tagKinds(kindsMax: Int = 1_000) throws(EventLogError) -> [String] {
        precondition(kindsMax > 0, "at least one kind is asked for")
        let colon = UInt8(ascii: ":")
        return try LogDatabases.mapStorage {
            try environment.read { txn in
                try txn.withCursor(databases.tags) { cursor in
                    var kinds: [String] = []
                    var entry = try cursor.first()
                    var seeks = 0
                    while let current = entry, seeks < kindsMax {
                        seeks += 1
                        // A tags key is `tag NUL position` (IndexKeys.namePosition).
                        let name = current.key.prefix(max(current.key.count - 9, 0))
                        if let end = name.firstIndex(of: colon) {
                            let kind = Array(name[..<end])
                            kinds.append(String(decoding: kind, as: UTF8.self))
                            // `kind;` sorts right after every `kind:…` (';' follows ':').
                            entry = try cursor.seek(atOrAfter: kind + [colon + 1])
                        } else {
                            // Past every entry of this tag: its keys continue with NUL, 0x01 sorts after.
                            entry = try cursor.seek(atOrAfter: Array(name) + [0x01])
                        }
                    }
                    return kinds
                }
            }
        }
    }
}
