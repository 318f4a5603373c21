import Foundation
import Testing
@testable import Projections

@Suite("Freed memory given back")
struct FreedMemoryTests {
    /// 32 MB in 4 KB blocks (below glibc's mmap threshold, so in an arena), all freed but the
    /// last, which keeps the arena's top: only a trim gives those pages back.
    @Test func freedBlocksAreGivenBackToTheSystem() throws {
        #if canImport(Glibc)
        var blocks: [UnsafeMutableRawPointer] = []
        for _ in 0..<8_192 {
            let block = try #require(malloc(4_096))
            memset(block, 1, 4_096)  // resident
            blocks.append(block)
        }
        for block in blocks.dropLast() { free(block) }
        #expect(FreedMemory.returnToSystem(), "malloc_trim gave pages back")
        free(blocks.last)
        #endif
    }
}
