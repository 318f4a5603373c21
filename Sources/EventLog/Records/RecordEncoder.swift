import Foundation

/// Builds version-1 records. The checksum is computed last, over every preceding byte.
package enum RecordEncoder {
    /// Position, version and time the log assigns to an event.
    package struct Placement {
        var position: UInt64
        var streamVersion: UInt64
        var recordedAtMicroseconds: Int64

        package init(position: UInt64, streamVersion: UInt64, recordedAtMicroseconds: Int64) {
            self.position = position
            self.streamVersion = streamVersion
            self.recordedAtMicroseconds = recordedAtMicroseconds
        }
    }

    /// The record for `event` at `placement`. The event must already satisfy the limits.
    ///
    /// The record is written into one allocation of its exact size: encoding runs on the writer
    /// thread, where every temporary costs every appender (docs/benchmarks.md).
    package static func encode(_ event: ProposedEvent, metadata: AppendMetadata, at placement: Placement) -> [UInt8] {
        let tagBytes = event.tags.reduce(0) { $0 + 2 + $1.utf8.count }
        let total = RecordLayout.headerBytes + event.streamID.utf8.count + event.type.utf8.count
            + metadata.actor.utf8.count + tagBytes + event.data.count + RecordLayout.checksumBytes
        return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            var writer = ByteWriter(UnsafeMutableRawBufferPointer(buffer))
            writer.byte(RecordLayout.magic.0)
            writer.byte(RecordLayout.magic.1)
            writer.byte(RecordLayout.formatVersion)
            writer.byte(metadata.causationID == nil ? 0 : RecordLayout.flagHasCausation)
            writer.integer(UInt32(total))
            writer.integer(placement.position)
            writer.integer(placement.streamVersion)
            writer.integer(placement.recordedAtMicroseconds)
            writer.integer(event.schemaVersion)
            writer.integer(UInt16(event.tags.count))
            writer.integer(UInt16(event.streamID.utf8.count))
            writer.integer(UInt16(event.type.utf8.count))
            writer.integer(UInt16(metadata.actor.utf8.count))
            writer.integer(UInt16(0))  // reserved
            writer.integer(UInt32(event.data.count))
            writer.uuid(metadata.commandID)
            writer.uuid(metadata.correlationID)
            writer.uuid(metadata.causationID ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))  // absent: zeros, flag unset
            assert(writer.offset == RecordLayout.headerBytes, "header layout drifted from RecordLayout")
            writer.utf8(event.streamID)
            writer.utf8(event.type)
            writer.utf8(metadata.actor)
            for tag in event.tags {
                writer.integer(UInt16(tag.utf8.count))
                writer.utf8(tag)
            }
            event.data.withUnsafeBytes { writer.bytes($0) }
            let body = UnsafeRawBufferPointer(rebasing: writer.buffer[0..<writer.offset])
            writer.integer(CRC32C.checksum(body))
            assert(writer.offset == total, "record length differs from its header")
            initialized = total
        }
    }
}

/// Writes little-endian fields into a buffer of known size, front to back.
private struct ByteWriter {
    let buffer: UnsafeMutableRawBufferPointer
    private(set) var offset = 0

    init(_ buffer: UnsafeMutableRawBufferPointer) {
        self.buffer = buffer
    }

    mutating func byte(_ value: UInt8) {
        buffer[offset] = value
        offset += 1
    }

    mutating func integer<T: FixedWidthInteger>(_ value: T) {
        buffer.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
        offset += MemoryLayout<T>.size
    }

    mutating func uuid(_ value: UUID) {
        withUnsafeBytes(of: value.uuid) { bytes($0) }
    }

    mutating func utf8(_ value: String) {
        var value = value
        value.withUTF8 { bytes(UnsafeRawBufferPointer($0)) }
    }

    mutating func bytes(_ source: UnsafeRawBufferPointer) {
        precondition(offset + source.count <= buffer.count, "record field overruns its buffer")
        guard let base = source.baseAddress, !source.isEmpty else { return }
        (buffer.baseAddress! + offset).copyMemory(from: base, byteCount: source.count)
        offset += source.count
    }
}

extension [UInt8] {
    mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}
