/// Byte offsets of the version-1 record header (docs/record-format.md). All integers in a
/// record are little-endian; index keys are big-endian so they sort by value.
enum RecordLayout {
    static let magic: (UInt8, UInt8) = (UInt8(ascii: "L"), UInt8(ascii: "B"))
    static let formatVersion: UInt8 = 1
    static let flagHasCausation: UInt8 = 1

    static let formatOffset = 2
    static let flagsOffset = 3
    static let totalLengthOffset = 4
    static let positionOffset = 8
    static let streamVersionOffset = 16
    static let recordedAtOffset = 24
    static let schemaVersionOffset = 32
    static let tagCountOffset = 34
    static let streamIDLengthOffset = 36
    static let typeLengthOffset = 38
    static let actorLengthOffset = 40
    static let dataLengthOffset = 44
    static let commandIDOffset = 48
    static let correlationIDOffset = 64
    static let causationIDOffset = 80
    /// Where the variable part (stream id, type, actor, tags, data) begins.
    static let headerBytes = 96
    static let checksumBytes = 4
    /// The smallest possible record: a header and a checksum around empty fields.
    static let recordBytesMin = headerBytes + checksumBytes
}
