import Blobs
import Foundation
import Testing

@Suite struct SolidPNGTests {
    /// The generated PNG is one a decoder accepts: its chunks' CRCs and the zlib checksum are
    /// the standard ones (checked against known values), and the store sniffs it as a PNG.
    @Test func generatedImagesCarryTheStandardChecksums() {
        #expect(SolidPNG.crc32(Data("IEND".utf8)) == 0xAE42_6082)
        #expect(SolidPNG.crc32(Data("123456789".utf8)) == 0xCBF4_3926)
        #expect(SolidPNG.adler32(Data("Wikipedia".utf8)) == 0x11E6_0398)
        let png = SolidPNG.image(width: 1, height: 1, red: 255, green: 0, blue: 0)
        #expect(png.suffix(12) == Data([0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]))
        #expect(png.withUnsafeBytes { ImageType.sniff($0) } == .png)
    }
}
