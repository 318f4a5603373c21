import Foundation

/// One of the two write-ahead files, `<log>/wal-0` and `<log>/wal-1`. Each committed batch's
/// writes are one record (`WriteAheadRecord`), written at the end of the current file and made
/// durable with one `fdatasync` before LMDB commits them without a sync.
///
/// A checkpoint begins by moving the writing to the other file, from its start; once the
/// checkpoint is durable the records of the file left behind are not needed, and that file is
/// the one the next checkpoint moves to. So what follows the records written since a move is
/// older (lower sequences) and ends a scan, as does a record cut short by a crash.
final class WriteAheadFile {
    static func name(_ index: Int) -> String { "wal-\(index)" }
    private let file: RawFile
    /// Where the next record goes.
    private(set) var endOffset = 0
    /// The record written at `endOffset` and not yet committed or taken back.
    private var written: (sequence: UInt64, bytes: Int)?
    /// The sequence of the last committed record, of either file.
    private(set) var lastSequence: UInt64

    /// Opens `<directory>/wal-<index>`, creating it (durably) if missing, for records after
    /// `lastSequence`, written from its start. A new file is written with `preallocatedBytes`
    /// of zeros, so that appending a record changes no file size (one flush of data, not a
    /// journal commit of the file system's metadata too) until the records outgrow it.
    init(directory: String, index: Int, lastSequence: UInt64, preallocatedBytes: Int) throws(EventLogError) {
        let path = (directory as NSString).appendingPathComponent(Self.name(index))
        let existed = FileManager.default.fileExists(atPath: path)
        file = try RawFile(path: path, creating: true)
        self.lastSequence = lastSequence
        if !existed {
            // In pieces: a buffer the size of the file would stay in the heap's high-water mark.
            let zeros = [UInt8](repeating: 0, count: min(preallocatedBytes, 1 << 20))
            for offset in stride(from: 0, to: preallocatedBytes, by: zeros.count) {
                try file.write(zeros.prefix(preallocatedBytes - offset), at: offset)
            }
            try file.sync()
            try RawFile.syncDirectory(directory)
        }
    }

    /// The records after sequence `applied`, in order, each with its writes: the run of
    /// consecutive, intact records from the start of file `first`, continued by the run at the
    /// start of the other file when that one follows it (a checkpoint had begun and not ended),
    /// less those `applied` covers. Throws when the records start after `applied + 1` (records
    /// the log needs are missing).
    static func records(in directory: String, first: Int, after applied: UInt64) throws(EventLogError) -> [(sequence: UInt64, puts: [WriteAheadPut])] {
        var run = try self.run(in: directory, index: first)
        let next = try self.run(in: directory, index: 1 - first)
        if let last = run.last?.sequence, next.first?.sequence == last + 1 { run += next }
        let needed = run.drop { $0.sequence <= applied }
        if let start = needed.first?.sequence, start != applied + 1 {
            throw .corruptRecord(position: 0, reason: "the write-ahead files resume at record \(start), after \(applied + 1) that the log needs")
        }
        return Array(needed)
    }

    /// The consecutive, intact records from the start of file `index`.
    private static func run(in directory: String, index: Int) throws(EventLogError) -> [(sequence: UInt64, puts: [WriteAheadPut])] {
        let path = (directory as NSString).appendingPathComponent(name(index))
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let file = try RawFile(readingOnly: path)
        defer { file.close() }
        let size = try file.size
        var records: [(sequence: UInt64, puts: [WriteAheadPut])] = []
        var offset = 0
        while size - offset >= WriteAheadRecord.headerBytes {
            let head = try file.read(WriteAheadRecord.headerBytes, at: offset)
            guard let (sequence, payloadBytes) = head.withUnsafeBytes({ WriteAheadRecord.header($0) }),
                  records.last.map({ $0.sequence + 1 == sequence }) ?? true,
                  size - offset - WriteAheadRecord.headerBytes >= payloadBytes else { break }
            let bytes = try file.read(WriteAheadRecord.headerBytes + payloadBytes, at: offset)
            guard let puts = bytes.withUnsafeBytes({ WriteAheadRecord.puts($0) }) else { break }
            records.append((sequence, puts))
            offset += bytes.count
        }
        return records
    }

    /// Writes the next record durably. Until `committed()` it may be written again (LMDB ran the
    /// batch again) or taken back with `withdraw()`.
    func write(_ puts: [WriteAheadPut]) throws(EventLogError) {
        let sequence = lastSequence + 1
        let bytes = WriteAheadRecord.encode(sequence: sequence, puts: puts)
        try file.write(bytes, at: endOffset)
        try file.sync()
        written = (sequence, bytes.count)
    }

    /// The record written last is in LMDB's commit: the next one follows it.
    func committed() {
        guard let written else { preconditionFailure("committed() follows write()") }
        lastSequence = written.sequence
        endOffset += written.bytes
        self.written = nil
    }

    /// LMDB did not commit the record written last: it must never be applied. Its header is
    /// zeroed durably; if even that fails, the caller must stop writing.
    func withdraw() throws(EventLogError) {
        guard written != nil else { return }
        written = nil
        try file.write([UInt8](repeating: 0, count: WriteAheadRecord.headerBytes), at: endOffset)
        try file.sync()
    }

    /// Records after `lastSequence` go here from now on, from the file's start.
    func restart(after lastSequence: UInt64) {
        assert(written == nil, "no record between write and commit when the files change")
        self.lastSequence = lastSequence
        endOffset = 0
    }

    func close() {
        file.close()
    }
}
