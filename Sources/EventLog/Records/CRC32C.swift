import CCRC32C

/// CRC-32C (Castagnoli), the checksum every record carries.
///
/// The CPU's crc32 instruction when it has one (x86-64 SSE4.2, about 7× faster here); otherwise
/// slicing-by-8, where eight 256-entry tables let the loop consume a 64-bit word per step.
enum CRC32C {
    /// Whether `checksum` uses the CPU instruction; decided once per process.
    static let usesHardware = logbook_crc32c_hardware_available() != 0

    private static let polynomial: UInt32 = 0x82F6_3B78  // reflected 0x1EDC6F41

    /// Eight tables of 256 entries, flattened: table k starts at index k * 256.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ polynomial : crc >> 1 }
            tables[byte] = crc
        }
        for slice in 1..<8 {
            for byte in 0..<256 {
                let previous = tables[(slice - 1) * 256 + byte]
                tables[slice * 256 + byte] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    /// The CRC-32C of `bytes`.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard usesHardware, let base = bytes.baseAddress else { return softwareChecksum(bytes) }
        return logbook_crc32c_hardware(base, bytes.count)
    }

    /// The CRC-32C of `bytes` from the tables: the fallback, and the reference tests compare with.
    static func softwareChecksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        tables.withUnsafeBufferPointer { table in
            var crc: UInt32 = 0xFFFF_FFFF
            var offset = 0
            let count = bytes.count
            while count - offset >= 8 {
                let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
                    ^ UInt64(crc)
                crc = table[7 * 256 + Int(word & 0xFF)]
                    ^ table[6 * 256 + Int((word >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((word >> 16) & 0xFF)]
                    ^ table[4 * 256 + Int((word >> 24) & 0xFF)]
                    ^ table[3 * 256 + Int((word >> 32) & 0xFF)]
                    ^ table[2 * 256 + Int((word >> 40) & 0xFF)]
                    ^ table[1 * 256 + Int((word >> 48) & 0xFF)]
                    ^ table[Int(word >> 56)]
                offset += 8
            }
            while offset < count {
                crc = table[Int((crc ^ UInt32(bytes[offset])) & 0xFF)] ^ (crc >> 8)
                offset += 1
            }
            return ~crc
        }
    }

    /// The CRC-32C of `bytes`.
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }
}
