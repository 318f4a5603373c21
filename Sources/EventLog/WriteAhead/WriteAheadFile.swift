import Foundation

/// One of the two write-ahead files, `<log>/wal-0` and `<log>/wal-1`. Each committed batch's
/// writes are one frame (`WriteAheadFrame`), written at the end of the current file and made
/// durable with one `fdatasync` before LMDB commits them without a sync.
///
/// A checkpoint begins by moving the writing to the other file, from its start; once the
/// checkpoint is durable the frames of the file left behind are not needed, and that file is
/// the one the next checkpoint moves to. So what follows the frames written since a move is
/// older (lower sequences) and ends a scan, as does a frame cut short by a crash.
final class WriteAheadFile {
    static func name(_ index: Int) -> String { "wal-\(index)" }
    private let file: RawFile
    /// Where the next frame goes.
    private(set) var endOffset = 0
    /// The frame written at `endOffset` and not yet committed or taken back.
    private var written: (sequence: UInt64, bytes: Int)?
    /// The sequence of the last committed frame, of either file.
    private(set) var lastSequence: UInt64

    /// Opens `<directory>/wal-<index>`, creating it (durably) if missing, for frames after
    /// `lastSequence`, written from its start. A new file is written with `preallocatedBytes`
    /// of zeros, so that appending a frame changes no file size (one flush of data, not a
    /// journal commit of the file system's metadata too) until the frames outgrow it.
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

    /// The frames after sequence `applied`, in order, each with its writes: the run of
    /// consecutive, intact frames from the start of file `first`, continued by the run at the
    /// start of the other file when that one follows it (a checkpoint had begun and not ended),
    /// less those `applied` covers. Throws when the frames start after `applied + 1` (frames
    /// the log needs are missing).
    static func frames(in directory: String, first: Int, after applied: UInt64) throws(EventLogError) -> [(sequence: UInt64, puts: [WriteAheadPut])] {
        var run = try self.run(in: directory, index: first)
        let next = try self.run(in: directory, index: 1 - first)
        if let last = run.last?.sequence, next.first?.sequence == last + 1 { run += next }
        let needed = run.drop { $0.sequence <= applied }
        if let start = needed.first?.sequence, start != applied + 1 {
            throw .corruptRecord(position: 0, reason: "the write-ahead files resume at frame \(start), after \(applied + 1) that the log needs")
        }
        return Array(needed)
    }

    /// The consecutive, intact frames from the start of file `index`.
    private static func run(in directory: String, index: Int) throws(EventLogError) -> [(sequence: UInt64, puts: [WriteAheadPut])] {
        let path = (directory as NSString).appendingPathComponent(name(index))
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let file = try RawFile(readingOnly: path)
        defer { file.close() }
        let size = try file.size
        var frames: [(sequence: UInt64, puts: [WriteAheadPut])] = []
        var offset = 0
        while size - offset >= WriteAheadFrame.headerBytes {
            let head = try file.read(WriteAheadFrame.headerBytes, at: offset)
            guard let (sequence, payloadBytes) = head.withUnsafeBytes({ WriteAheadFrame.header($0) }),
                  frames.last.map({ $0.sequence + 1 == sequence }) ?? true,
                  size - offset - WriteAheadFrame.headerBytes >= payloadBytes else { break }
            let bytes = try file.read(WriteAheadFrame.headerBytes + payloadBytes, at: offset)
            guard let puts = bytes.withUnsafeBytes({ WriteAheadFrame.puts($0) }) else { break }
            frames.append((sequence, puts))
            offset += bytes.count
        }
        return frames
    }

    /// Writes the next frame durably. Until `committed()` it may be written again (LMDB ran the
    /// batch again) or taken back with `withdraw()`.
    func write(_ puts: [WriteAheadPut]) throws(EventLogError) {
        let sequence = lastSequence + 1
        let bytes = WriteAheadFrame.encode(sequence: sequence, puts: puts)
        try file.write(bytes, at: endOffset)
        try file.sync()
        written = (sequence, bytes.count)
    }

    /// The frame written last is in LMDB's commit: the next one follows it.
    func committed() {
        guard let written else { preconditionFailure("committed() follows write()") }
        lastSequence = written.sequence
        endOffset += written.bytes
        self.written = nil
    }

    /// LMDB did not commit the frame written last: it must never be applied. Its header is
    /// zeroed durably; if even that fails, the caller must stop writing.
    func withdraw() throws(EventLogError) {
        guard written != nil else { return }
        written = nil
        try file.write([UInt8](repeating: 0, count: WriteAheadFrame.headerBytes), at: endOffset)
        try file.sync()
    }

    /// Frames after `lastSequence` go here from now on, from the file's start.
    func restart(after lastSequence: UInt64) {
        assert(written == nil, "no frame between write and commit when the files change")
        self.lastSequence = lastSequence
        endOffset = 0
    }

    func close() {
        file.close()
    }
}
