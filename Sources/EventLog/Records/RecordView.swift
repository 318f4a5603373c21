import Foundation

/// A checked, non-copying view of one stored record.
///
/// Creating the view verifies everything a record can prove about itself: magic, format,
/// length, checksum, position and the layout of its variable part. Fields are read on demand,
/// so a scan that only needs the header does not allocate.
package struct RecordView {
    private let bytes: UnsafeRawBufferPointer
    /// Offsets into the variable part, computed once while checking the layout.
    private let typeStart: Int
    private let actorStart: Int
    private let tagsStart: Int
    private let dataStart: Int

    /// Checks `bytes` as the record stored at `position`.
    package init(_ bytes: UnsafeRawBufferPointer, position: UInt64) throws(EventLogError) {
        func corrupt(_ reason: String) -> EventLogError { .corruptRecord(position: position, reason: reason) }
        guard bytes.count >= RecordLayout.recordBytesMin else { throw corrupt("record of \(bytes.count) bytes is too short") }
        guard bytes[0] == RecordLayout.magic.0, bytes[1] == RecordLayout.magic.1 else { throw corrupt("bad magic") }
        guard bytes[RecordLayout.formatOffset] == RecordLayout.formatVersion else {
            throw corrupt("unknown record format \(bytes[RecordLayout.formatOffset])")
        }
        let body = UnsafeRawBufferPointer(rebasing: bytes[0..<(bytes.count - RecordLayout.checksumBytes)])
        let stored = bytes.loadUnaligned(fromByteOffset: body.count, as: UInt32.self).littleEndian
        guard CRC32C.checksum(body) == stored else { throw corrupt("checksum mismatch") }
        guard Int(bytes.loadUnaligned(fromByteOffset: RecordLayout.totalLengthOffset, as: UInt32.self).littleEndian)
            == bytes.count
        else { throw corrupt("length field disagrees with the stored size") }
        let storedPosition = bytes.loadUnaligned(fromByteOffset: RecordLayout.positionOffset, as: UInt64.self).littleEndian
        guard storedPosition == position else { throw corrupt("record claims position \(storedPosition)") }

        let u16 = { (offset: Int) in Int(bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self).littleEndian) }
        typeStart = RecordLayout.headerBytes + u16(RecordLayout.streamIDLengthOffset)
        actorStart = typeStart + u16(RecordLayout.typeLengthOffset)
        tagsStart = actorStart + u16(RecordLayout.actorLengthOffset)
        var cursor = tagsStart
        for _ in 0..<u16(RecordLayout.tagCountOffset) {
            guard cursor + 2 <= body.count else { throw corrupt("tags run past the record") }
            cursor += 2 + u16(cursor)
        }
        dataStart = cursor
        let dataLength = Int(bytes.loadUnaligned(fromByteOffset: RecordLayout.dataLengthOffset, as: UInt32.self).littleEndian)
        guard dataStart + dataLength == body.count else { throw corrupt("field lengths disagree with the record size") }
        self.bytes = bytes
    }

    var streamVersion: UInt64 { integer(at: RecordLayout.streamVersionOffset) }
    package var recordedAtMicroseconds: Int64 { integer(at: RecordLayout.recordedAtOffset) }
    var schemaVersion: UInt16 { integer(at: RecordLayout.schemaVersionOffset) }
    var streamID: String { string(RecordLayout.headerBytes, typeStart) }
    var type: String { string(typeStart, actorStart) }
    var actor: String { string(actorStart, tagsStart) }
    var commandID: UUID { uuid(at: RecordLayout.commandIDOffset) }

    var streamIDBytes: UnsafeRawBufferPointer { slice(RecordLayout.headerBytes, typeStart) }
    var typeBytes: UnsafeRawBufferPointer { slice(typeStart, actorStart) }

    var tags: [String] {
        // Counted first, so the array is allocated once: grown tag by tag, it was reallocated
        // for the second and the third (2% of a rebuild's samples in malloc).
        var count = 0
        var cursor = tagsStart
        while cursor < dataStart {
            count += 1
            cursor += 2 + Int(integer(at: cursor) as UInt16)
        }
        guard count > 0 else { return [] }
        var tags: [String] = []
        tags.reserveCapacity(count)
        cursor = tagsStart
        while cursor < dataStart {
            let length = Int(integer(at: cursor) as UInt16)
            tags.append(string(cursor + 2, cursor + 2 + length))
            cursor += 2 + length
        }
        return tags
    }

    /// Copies every field out into a `RecordedEvent`.
    package func decode(position: UInt64) -> RecordedEvent {
        var strings = RepeatedStrings()
        return decode(position: position, reusing: &strings)
    }

    /// Copies every field out, taking stream id, type and actor from `strings` when they repeat
    /// the previous record's: a page of a scan then allocates them once, not once per event.
    func decode(position: UInt64, reusing strings: inout RepeatedStrings) -> RecordedEvent {
        let hasCausation = bytes[RecordLayout.flagsOffset] & RecordLayout.flagHasCausation != 0
        return RecordedEvent(
            position: position,
            streamID: strings.streamID.string(for: slice(RecordLayout.headerBytes, typeStart)),
            streamVersion: streamVersion,
            type: strings.type.string(for: slice(typeStart, actorStart)),
            schemaVersion: schemaVersion,
            recordedAt: Date(microsecondsSince1970: recordedAtMicroseconds),
            actor: strings.actor.string(for: slice(actorStart, tagsStart)),
            commandID: commandID,
            correlationID: uuid(at: RecordLayout.correlationIDOffset),
            causationID: hasCausation ? uuid(at: RecordLayout.causationIDOffset) : nil,
            tags: tags,
            data: Data(slice(dataStart, bytes.count - RecordLayout.checksumBytes))
        )
    }

    private func integer<T: FixedWidthInteger>(at offset: Int) -> T {
        T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    private func slice(_ start: Int, _ end: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }

    private func string(_ start: Int, _ end: Int) -> String {
        String(decoding: slice(start, end), as: UTF8.self)
    }

    private func uuid(at offset: Int) -> UUID {
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &raw) { $0.copyMemory(from: slice(offset, offset + 16)) }
        return UUID(uuid: raw)
    }
}

/// The last stream id, type and actor decoded, kept for reuse by the next record of a page.
struct RepeatedStrings {
    /// One field's last value and its UTF-8 bytes.
    struct Slot {
        private var bytes: [UInt8] = []
        private var value = ""

        /// The string of `utf8`, reusing the last one when the bytes are the same.
        mutating func string(for utf8: UnsafeRawBufferPointer) -> String {
            if !utf8.elementsEqual(bytes) {
                bytes = Array(utf8)
                value = String(decoding: utf8, as: UTF8.self)
            }
            return value
        }
    }

    var streamID = Slot()
    var type = Slot()
    var actor = Slot()
}

extension Date {
    /// The date `microseconds` after 1970-01-01T00:00:00Z.
    init(microsecondsSince1970 microseconds: Int64) {
        self.init(timeIntervalSince1970: Double(microseconds) / 1_000_000)
    }

    /// Whole microseconds since 1970-01-01T00:00:00Z, rounded down.
    var microsecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1_000_000).rounded(.down))
    }
}
