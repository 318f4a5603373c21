import Foundation
import Testing
@testable import EventLog

/// `FileLines`: the lines of a file a chunk at a time, whatever the chunk boundaries cut.
@Suite("File lines")
struct FileLinesTests {
    private static func lines(of text: String, chunkBytes: Int) throws -> [String] {
        let path = NSTemporaryDirectory() + "file-lines-" + UUID().uuidString
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reader = try #require(FileLines(path: path, chunkBytes: chunkBytes))
        var lines: [String] = []
        while let line = try reader.next() { lines.append(String(decoding: line, as: UTF8.self)) }
        return lines
    }

    @Test func everyChunkSizeReadsTheSameLines() throws {
        let text = "{\"kind\":\"header\"}\n\nshort\n" + String(repeating: "long ", count: 40) + "\né ✓ \n"
        let expected = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        for chunkBytes in [1, 2, 3, 7, 64, 1 << 20] {
            #expect(try Self.lines(of: text, chunkBytes: chunkBytes) == expected, "chunks of \(chunkBytes)")
        }
    }

    @Test func aLastLineWithoutANewlineIsRead() throws {
        #expect(try Self.lines(of: "a\nb", chunkBytes: 1) == ["a", "b"])
        #expect(try Self.lines(of: "", chunkBytes: 4).isEmpty)
        #expect(try Self.lines(of: "\n", chunkBytes: 4) == [""])
    }

    @Test func aMissingFileIsNil() {
        #expect(FileLines(path: NSTemporaryDirectory() + "missing-" + UUID().uuidString) == nil)
    }
}
