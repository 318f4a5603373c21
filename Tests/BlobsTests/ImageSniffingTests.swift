import Blobs
import Testing

@Suite struct ImageSniffingTests {
    private func sniff(_ bytes: [UInt8]) -> ImageType? {
        bytes.withUnsafeBytes { ImageType.sniff($0) }
    }

    @Test func eachAcceptedFormatIsRecognisedFromRealBytes() {
        #expect(sniff(ImageSamples.png) == .png)
        #expect(sniff(ImageSamples.jpeg) == .jpeg)
        #expect(sniff(ImageSamples.webpLossless) == .webp)
        #expect(sniff(ImageSamples.webpLossy) == .webp)
        #expect(sniff(ImageSamples.heic) == .heic)
        #expect(sniff(ImageSamples.heifGeneric) == .heic)
    }

    @Test func onlyTheLeadingBytesAreLookedAt() {
        let long = ImageSamples.pngSized(100_000)
        #expect(sniff(long) == .png)
        #expect(sniff(Array(long.prefix(ImageType.sniffBytes))) == .png)
    }

    @Test func otherFormatsAndTextAreRefused() {
        #expect(sniff(ImageSamples.gif) == nil)
        #expect(sniff(ImageSamples.avif) == nil)
        #expect(sniff(ImageSamples.mp4) == nil)
        #expect(sniff(ImageSamples.text) == nil)
        #expect(sniff(Array("RIFF\u{24}\0\0\0WAVEfmt ".utf8) + [UInt8](repeating: 0, count: 40)) == nil)
    }

    @Test func emptyAndTruncatedBytesAreRefused() {
        #expect(sniff([]) == nil)
        #expect(sniff(Array(ImageSamples.png.prefix(8))) == nil, "a PNG signature without its IHDR")
        #expect(sniff(Array(ImageSamples.jpeg.prefix(3))) == nil, "SOI without a marker")
        #expect(sniff(Array(ImageSamples.webpLossless.prefix(12))) == nil, "RIFF/WEBP without a chunk")
        #expect(sniff(Array(ImageSamples.heic.prefix(12))) == nil, "an ftyp box cut in its major brand")
    }

    @Test func aSignatureFollowedByTheWrongStructureIsRefused() {
        var png = ImageSamples.png
        png[12] = UInt8(ascii: "X")  // the first chunk is not IHDR
        #expect(sniff(png) == nil)
        var webp = ImageSamples.webpLossless
        webp[15] = UInt8(ascii: "Q")  // `VP8Q` is no WebP chunk
        #expect(sniff(webp) == nil)
        var heic = ImageSamples.heic
        heic[3] = 0x13  // a box size no box of brands has
        #expect(sniff(heic) == nil)
    }
}
