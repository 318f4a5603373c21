import Foundation
import Testing
@testable import EventLog

@Suite("Record format")
struct RecordCodecTests {
    @Test func crc32cMatchesTheStandardCheckValue() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum([]) == 0)
        // Every length crosses the 8-byte fast path and the byte tail differently.
        let bytes = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        for count in 0..<bytes.count {
            let expected = bitwiseCRC(bytes[..<count])
            #expect(CRC32C.checksum(Array(bytes[..<count])) == expected)
            #expect(Array(bytes[..<count]).withUnsafeBytes { CRC32C.softwareChecksum($0) } == expected)
        }
    }

    @Test func hardwareChecksumIsUsedWhereTheCPUHasIt() throws {
        let flags = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        #expect(CRC32C.usesHardware == flags.contains(" sse4_2"))
    }

    /// The definition, one bit at a time, to check the sliced tables against.
    private func bitwiseCRC(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return ~crc
    }

    private let metadata = AppendMetadata(commandID: UUID(), correlationID: UUID(), causationID: nil, actor: "user-1")
    private let proposed = ProposedEvent(streamID: "quiz-9", type: "quiz.answered", schemaVersion: 2, tags: ["game:9", "user:1"], data: Data(#"{"a":1}"#.utf8))

    private func encoded() -> [UInt8] {
        RecordEncoder.encode(proposed, metadata: metadata, at: .init(position: 42, streamVersion: 7, recordedAtMicroseconds: 1_700_000_000_000_001))
    }

    @Test func roundTrip() throws {
        let record = encoded()
        let decoded = try record.withUnsafeBytes { try RecordView($0, position: 42).decode(position: 42) }
        #expect(decoded.streamID == "quiz-9" && decoded.streamVersion == 7 && decoded.type == "quiz.answered")
        #expect(decoded.schemaVersion == 2 && decoded.tags == ["game:9", "user:1"] && decoded.data == proposed.data)
        #expect(decoded.actor == "user-1" && decoded.commandID == metadata.commandID && decoded.causationID == nil)
        #expect(decoded.recordedAt.microsecondsSince1970 == 1_700_000_000_000_001)
        #expect(record.count == RecordLayout.headerBytes + 6 + 13 + 6 + (2 + 6) + (2 + 6) + 7 + 4)
    }

    @Test func everySingleFlippedByteIsDetected() {
        let record = encoded()
        for index in record.indices {
            var damaged = record
            damaged[index] ^= 0x40
            // Every byte is under the checksum, so whatever the byte, the record is refused as
            // damaged at its position (the checks before the checksum name other reasons).
            #expect(performing: { try damaged.withUnsafeBytes { _ = try RecordView($0, position: 42) } }, throws: { error in
                guard case EventLogError.corruptRecord(position: 42, _) = error else { return false }
                return true
            })
        }
    }

    @Test func truncationAndWrongPositionAreDetected() {
        let record = encoded()
        #expect(throws: EventLogError.corruptRecord(position: 43, reason: "record claims position 42")) {
            try record.withUnsafeBytes { _ = try RecordView($0, position: 43) }
        }
        for length in [0, 10, RecordLayout.recordBytesMin - 1, record.count - 1] {
            #expect(performing: { try Array(record.prefix(length)).withUnsafeBytes { _ = try RecordView($0, position: 42) } }, throws: { error in
                guard case EventLogError.corruptRecord(position: 42, _) = error else { return false }
                return true
            })
        }
    }
}
