import Foundation

/// The lines of a file, read a chunk at a time, so an export of millions of events is never in
/// memory whole (`logbook-admin import` holds one chunk and the line it is on).
public struct FileLines {
    /// How much is read at once, unless said otherwise.
    public static let chunkBytesDefault = 1 << 20

    private let handle: FileHandle
    private let chunkBytes: Int
    private var buffer: [UInt8] = []
    /// Where the next line starts in `buffer`.
    private var start = 0
    private var atEnd = false

    /// Nil when the file cannot be opened.
    public init?(path: String, chunkBytes: Int = chunkBytesDefault) {
        precondition(chunkBytes > 0, "a read takes at least one byte")
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        self.handle = handle
        self.chunkBytes = chunkBytes
    }

    /// The next line without its newline; nil after the last. A file that ends without a
    /// newline still has its last line read.
    public mutating func next() throws -> ArraySlice<UInt8>? {
        var searched = start
        while true {
            if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                defer { start = newline + 1 }
                return buffer[start..<newline]
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                defer { start = buffer.count }
                return buffer[start...]
            }
            // Keeps only the unfinished line before reading on, so the buffer stays one chunk
            // and a line long.
            buffer.removeSubrange(0..<start)
            start = 0
            searched = buffer.count
            let chunk = try handle.read(upToCount: chunkBytes) ?? Data()
            if chunk.isEmpty { atEnd = true } else { buffer.append(contentsOf: chunk) }
        }
    }
}
