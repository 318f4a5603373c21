import Foundation

/// Real, minimal image files built byte by byte, so sniffing is tested against what encoders
/// write rather than against the signatures the sniffer itself checks.
enum ImageSamples {
    /// A 1×1 RGBA PNG: signature, IHDR, an IDAT of one stored-deflate scanline, IEND, with CRCs.
    static let png: [UInt8] = {
        let scanline: [UInt8] = [0, 0x12, 0x34, 0x56, 0xFF]  // filter 0, then R G B A
        let zlib: [UInt8] = [0x78, 0x01, 0x01, 0x05, 0x00, 0xFA, 0xFF] + scanline + bigEndian(adler32(scanline))
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", bigEndian(1) + bigEndian(1) + [8, 6, 0, 0, 0])
            + chunk("IDAT", zlib)
            + chunk("IEND", [])
    }()

    /// A JFIF JPEG's header: SOI, APP0 "JFIF", a quantisation table, a 1×1 baseline frame, EOI.
    static let jpeg: [UInt8] = {
        let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        let dqt: [UInt8] = [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
        let sof0: [UInt8] = [0xFF, 0xC0, 0x00, 0x0B, 8, 0, 1, 0, 1, 1, 1, 0x11, 0]
        return [0xFF, 0xD8] + app0 + dqt + sof0 + [0xFF, 0xD9]
    }()

    /// A 1×1 lossless WebP (a `VP8L` chunk), as browsers' feature tests use it.
    static let webpLossless = [UInt8](Data(base64Encoded: "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==")!)
    /// A 1×1 lossy WebP (a `VP8 ` chunk).
    static let webpLossy = [UInt8](Data(base64Encoded: "UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA")!)

    /// A HEIC's start as an iPhone writes it: `ftyp` heic (compatible mif1, heic), then `meta`.
    static let heic: [UInt8] = ftyp(major: "heic", compatible: ["mif1", "heic"]) + metaBox
    /// A HEIF image under the generic brand only (major mif1, compatible heix).
    static let heifGeneric: [UInt8] = ftyp(major: "mif1", compatible: ["mif1", "heix"]) + metaBox
    /// An AVIF's start: also a HEIF container (mif1) but AV1-coded, which is not ours.
    static let avif: [UInt8] = ftyp(major: "avif", compatible: ["avif", "mif1", "miaf"]) + metaBox
    /// An MP4 video's start: an `ftyp` box of no image brand.
    static let mp4: [UInt8] = ftyp(major: "isom", compatible: ["isom", "iso2", "mp41"]) + metaBox

    /// A 1×1 GIF89a.
    static let gif: [UInt8] = Array("GIF89a".utf8) + [
        1, 0, 1, 0, 0x80, 0, 0, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0x21, 0xF9, 4, 1, 0, 0, 0, 0,
        0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x3B,
    ]

    /// Text claiming nothing: what a client might send labelled image/png.
    static let text = Array("This is not a picture, just a long enough line of plain text.\n".utf8)

    /// `count` bytes that sniff as PNG: the sample's header, then filler varying with `seed`.
    static func pngSized(_ count: Int, seed: UInt8 = 0) -> [UInt8] {
        precondition(count >= png.count)
        var bytes = png
        bytes.reserveCapacity(count)
        var value = seed
        while bytes.count < count {
            value = value &* 31 &+ 7
            bytes.append(value)
        }
        return bytes
    }

    private static let metaBox: [UInt8] = bigEndian(33) + Array("meta".utf8) + [0, 0, 0, 0]
        + bigEndian(21) + Array("hdlr".utf8) + [0, 0, 0, 0, 0, 0, 0, 0] + Array("pict".utf8) + [0]

    private static func ftyp(major: String, compatible: [String]) -> [UInt8] {
        bigEndian(UInt32(16 + 4 * compatible.count)) + Array("ftyp".utf8) + Array(major.utf8) + [0, 0, 0, 0]
            + compatible.flatMap { Array($0.utf8) }
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }
}
