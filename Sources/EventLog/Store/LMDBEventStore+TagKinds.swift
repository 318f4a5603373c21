import LMDB

extension LMDBEventStore {
    /// The kinds of the tags in the log, in byte order: each `kind:value` tag's text before its
    /// first colon (`house`, `user`, `report`…), once each. Tags without a colon name no kind.
    ///
    /// Lets an auditor ask for an id without knowing what it is: the tags `<kind>:<id>` of every
    /// kind are then read through the tag index. It costs one seek per kind, not a walk over
    /// every tag: after a kind is found, the cursor jumps past all of that kind's tags.
    /// At most `kindsMax` seeks are made (tags without a colon take one each), so the answer is
    /// bounded however the log is tagged. The index tail's tags take part as if they were in the
    /// index: each seek finds the first tag at or after its key in either.
    public func tagKinds(kindsMax: Int = 1_000) throws(EventLogError) -> [String] {
        precondition(kindsMax > 0, "at least one kind is asked for")
        let colon = UInt8(ascii: ":")
        return try LogDatabases.mapStorage {
            try environment.read { txn in
                let tailTags = try indexTail(in: txn).names(in: .tags)
                    .map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
                return try txn.withCursor(databases.tags) { cursor in
                    // The first tag whose key (`tag NUL position`, IndexKeys.namePosition) is at
                    // or after `key`, in the index or in the tail.
                    func tag(atOrAfter key: [UInt8]) throws -> [UInt8]? {
                        let inIndex = try cursor.seek(atOrAfter: key).map { Array($0.key.prefix(max($0.key.count - 9, 0))) }
                        let inTail = tailTags.first { !($0 + [0]).lexicographicallyPrecedes(key) }
                        guard let inIndex, let inTail else { return inIndex ?? inTail }
                        return inIndex.lexicographicallyPrecedes(inTail) ? inIndex : inTail
                    }
                    var kinds: [String] = []
                    var name = try tag(atOrAfter: [])
                    var seeks = 0
                    while let current = name, seeks < kindsMax {
                        seeks += 1
                        if let end = current.firstIndex(of: colon) {
                            let kind = Array(current[..<end])
                            kinds.append(String(decoding: kind, as: UTF8.self))
                            // `kind;` sorts right after every `kind:…` (';' follows ':').
                            name = try tag(atOrAfter: kind + [colon + 1])
                        } else {
                            // Past every entry of this tag: its keys continue with NUL, 0x01 sorts after.
                            name = try tag(atOrAfter: current + [0x01])
                        }
                    }
                    return kinds
                }
            }
        }
    }
}
