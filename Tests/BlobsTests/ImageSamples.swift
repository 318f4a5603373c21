import Blobs
import Foundation

/// Real, minimal image files built byte by byte, so sniffing is tested against what encoders
/// write rather than against the signatures the sniffer itself checks.
enum ImageSamples {
    /// A 1×1 RGB PNG with its CRCs and zlib checksum right (`SolidPNG`, whose checksums
    /// `SolidPNGTests` checks against known values).
    static let png = [UInt8](SolidPNG.image(width: 1, height: 1, red: 0x12, green: 0x34, blue: 0x56))

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

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
