extension ImageType {
    /// How many leading bytes `sniff` looks at: enough for every signature and an `ftyp` box
    /// with a few compatible brands. An upload is judged as soon as this many bytes arrived.
    public static let sniffBytes = 64

    /// The format of the bytes that begin with `prefix` (at most `sniffBytes` of them are read),
    /// or nil when they are none of ours or too short to tell. Each format needs more than a
    /// magic number where one exists: a PNG its IHDR chunk, a WebP its first chunk's tag, a
    /// HEIC an `ftyp` box naming a HEIF image brand.
    public static func sniff(_ prefix: UnsafeRawBufferPointer) -> ImageType? {
        let bytes = Array(prefix.prefix(sniffBytes))
        if isPNG(bytes) { return .png }
        if isJPEG(bytes) { return .jpeg }
        if isWebP(bytes) { return .webp }
        if isHEIC(bytes) { return .heic }
        return nil
    }

    /// The 8-byte signature, then the first chunk: 13 bytes of `IHDR`.
    private static func isPNG(_ b: [UInt8]) -> Bool {
        b.count >= 16 && b[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            && b[8..<12].elementsEqual([0, 0, 0, 13]) && b[12..<16].elementsEqual(Array("IHDR".utf8))
    }

    /// Start of image, then a marker (APPn, a table, a frame, a comment: 0xC0...0xFE).
    private static func isJPEG(_ b: [UInt8]) -> Bool {
        b.count >= 4 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF && (0xC0...0xFE).contains(b[3])
    }

    /// `RIFF`, a size, `WEBP`, then a `VP8 `, `VP8L` or `VP8X` chunk.
    private static func isWebP(_ b: [UInt8]) -> Bool {
        guard b.count >= 16, b[0..<4].elementsEqual(Array("RIFF".utf8)), b[8..<12].elementsEqual(Array("WEBP".utf8)) else { return false }
        return ["VP8 ", "VP8L", "VP8X"].contains { b[12..<16].elementsEqual(Array($0.utf8)) }
    }

    /// An `ftyp` box whose major or a compatible brand is a HEIF image brand. `mif1` alone is
    /// any HEIF image, AVIF included, so it counts only when no AVIF brand is named.
    private static func isHEIC(_ b: [UInt8]) -> Bool {
        guard b.count >= 16, b[4..<8].elementsEqual(Array("ftyp".utf8)) else { return false }
        let boxBytes = Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3])
        guard boxBytes >= 16, boxBytes % 4 == 0 else { return false }
        let end = min(boxBytes, b.count)
        let brandOffsets = [8] + Array(stride(from: 16, to: end - 3, by: 4))
        let brands = Set(brandOffsets.map { String(decoding: b[$0..<$0 + 4], as: UTF8.self) })
        if !brands.isDisjoint(with: ["heic", "heix", "hevc", "hevx", "heim", "heis"]) { return true }
        return brands.contains("mif1") && brands.isDisjoint(with: ["avif", "avis"])
    }
}
