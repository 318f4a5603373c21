import Foundation

/// LMDB's two meta pages (pages 0 and 1 of `data.mdb`), copied and put back by the write-ahead
/// log's checkpoints (ADR 0006). Each names a transaction's roots; LMDB opens at the one with the
/// higher transaction id. Only LMDB 0.9's layout is accepted: each page's header (16 bytes) is
/// followed by the meta's magic 0xBEEFC0DE and data version 1, checked before a copy is kept and
/// before one is written back.
enum LMDBMetaPages {
    static let magic: UInt32 = 0xBEEF_C0DE
    static let dataVersion: UInt32 = 1
    static let pageHeaderBytes = 16

    /// Both meta pages of `dataFile` as the file holds them now.
    static func read(_ dataFile: String, pageSizeBytes: Int) throws(EventLogError) -> [UInt8] {
        let file = try RawFile(path: dataFile, creating: false)
        defer { file.close() }
        let pages = try file.read(2 * pageSizeBytes, at: 0)
        guard isValid(pages, pageSizeBytes: pageSizeBytes) else {
            throw .corruptRecord(position: 0, reason: "\(dataFile) does not start with two LMDB 0.9 meta pages")
        }
        return pages
    }

    /// Writes `pages` over both meta pages of `dataFile` and syncs it: LMDB then opens at their snapshot.
    static func restore(_ pages: [UInt8], to dataFile: String) throws(EventLogError) {
        guard pages.count % 2 == 0, isValid(pages, pageSizeBytes: pages.count / 2) else {
            throw .corruptRecord(position: 0, reason: "the checkpoint's copy of LMDB's meta pages is not LMDB 0.9's")
        }
        let file = try RawFile(path: dataFile, creating: false)
        defer { file.close() }
        try file.write(pages, at: 0)
        try file.sync()
    }

    static func isValid(_ pages: [UInt8], pageSizeBytes: Int) -> Bool {
        guard pageSizeBytes >= 512, pages.count == 2 * pageSizeBytes else { return false }
        return pages.withUnsafeBytes { raw in
            (0..<2).allSatisfy { page in
                let start = page * pageSizeBytes + pageHeaderBytes
                // LMDB writes these in the machine's byte order.
                return raw.loadUnaligned(fromByteOffset: start, as: UInt32.self) == magic
                    && raw.loadUnaligned(fromByteOffset: start + 4, as: UInt32.self) == dataVersion
            }
        }
    }
}
