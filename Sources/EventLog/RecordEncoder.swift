import Foundation

/// Builds version-1 records. The checksum is computed last, over every preceding byte.
enum RecordEncoder {
    /// Position, version and time the log assigns to an event.
    struct Placement {
        var position: UInt64
        var streamVersion: UInt64
        var recordedAtMicroseconds: Int64
    }

    /// The record for `event` at `placement`. The event must already satisfy the limits.
    static func encode(_ event: ProposedEvent, metadata: AppendMetadata, at placement: Placement) -> [UInt8] {
        let streamID = Array(event.streamID.utf8)
        let type = Array(event.type.utf8)
        let actor = Array(metadata.actor.utf8)
        let tags = event.tags.map { Array($0.utf8) }
        let variableBytes = streamID.count + type.count + actor.count
            + tags.reduce(0) { $0 + 2 + $1.count } + event.data.count
        let total = RecordLayout.headerBytes + variableBytes + RecordLayout.checksumBytes

        var record = [UInt8]()
        record.reserveCapacity(total)
        record.append(RecordLayout.magic.0)
        record.append(RecordLayout.magic.1)
        record.append(RecordLayout.formatVersion)
        record.append(metadata.causationID == nil ? 0 : RecordLayout.flagHasCausation)
        record.appendLittleEndian(UInt32(total))
        record.appendLittleEndian(placement.position)
        record.appendLittleEndian(placement.streamVersion)
        record.appendLittleEndian(placement.recordedAtMicroseconds)
        record.appendLittleEndian(event.schemaVersion)
        record.appendLittleEndian(UInt16(tags.count))
        record.appendLittleEndian(UInt16(streamID.count))
        record.appendLittleEndian(UInt16(type.count))
        record.appendLittleEndian(UInt16(actor.count))
        record.appendLittleEndian(UInt16(0))  // reserved
        record.appendLittleEndian(UInt32(event.data.count))
        record.appendUUID(metadata.commandID)
        record.appendUUID(metadata.correlationID)
        record.appendUUID(metadata.causationID ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))  // absent: zeros, flag unset
        assert(record.count == RecordLayout.headerBytes, "header layout drifted from RecordLayout")
        record.append(contentsOf: streamID)
        record.append(contentsOf: type)
        record.append(contentsOf: actor)
        for tag in tags {
            record.appendLittleEndian(UInt16(tag.count))
            record.append(contentsOf: tag)
        }
        record.append(contentsOf: event.data)
        record.appendLittleEndian(CRC32C.checksum(record))
        assert(record.count == total, "record length differs from its header")
        return record
    }
}

extension [UInt8] {
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }

    mutating func appendUUID(_ uuid: UUID) {
        Swift.withUnsafeBytes(of: uuid.uuid) { append(contentsOf: $0) }
    }
}
