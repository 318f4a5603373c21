import Foundation

/// Tiny valid PNG images made in code, so that the demo, the tests and the bench ship no binary
/// files: one colour, 8-bit RGB, the pixels in one zlib "stored" (uncompressed) block, every
/// CRC and the Adler-32 right.
public enum SolidPNG {
    /// A `width` × `height` PNG of one colour.
    public static func image(width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8) -> Data {
        precondition(width > 0 && height > 0 && height * (1 + 3 * width) <= 65_535, "one stored block holds the pixels")
        var header = Data()
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header.append(contentsOf: [8, 2, 0, 0, 0])  // 8 bits per sample, RGB, deflate, adaptive filtering, no interlace
        var pixels = Data()
        for _ in 0..<height {
            pixels.append(0)  // filter: none
            for _ in 0..<width { pixels.append(contentsOf: [red, green, blue]) }
        }
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        png.appendChunk("IHDR", header)
        png.appendChunk("IDAT", zlibStored(pixels))
        png.appendChunk("IEND", Data())
        return png
    }

    /// `bytes` as a zlib stream of one final stored block.
    private static func zlibStored(_ bytes: Data) -> Data {
        var stream = Data([0x78, 0x01, 0x01])  // zlib header (deflate, 32K window), then BFINAL=1 BTYPE=00
        let length = UInt16(bytes.count)
        stream.append(contentsOf: [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)])
        stream.append(bytes)
        stream.appendBigEndian(adler32(bytes))
        return stream
    }

    /// Adler-32, the zlib stream's checksum.
    public static func adler32(_ bytes: Data) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    /// CRC-32 (ISO-HDLC, the PNG's), bit by bit: a few hundred bytes need no table.
    public static func crc32(_ bytes: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

private extension Data {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }

    /// A PNG chunk: length, type, data, and the CRC of type and data.
    mutating func appendChunk(_ type: String, _ data: Data) {
        appendBigEndian(UInt32(data.count))
        let typed = Data(type.utf8) + data
        append(typed)
        appendBigEndian(SolidPNG.crc32(typed))
    }
}
