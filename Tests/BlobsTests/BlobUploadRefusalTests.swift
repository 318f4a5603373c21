import BlobStore
import Blobs
import Foundation
import Testing

@Suite struct BlobUploadRefusalTests {
    @Test func anUploadPastTheLimitIsRefusedAtTheChunkThatPassesIt() throws {
        let fixture = try TemporaryBlobStore(syncs: false)
        defer { fixture.remove() }
        let upload = try fixture.store.beginUpload()
        let chunk = ImageSamples.pngSized(1024 * 1024)
        for _ in 0..<10 { try upload.append(chunk[...]) }
        #expect(upload.bytes == BlobLimits.imageBytesMax, "exactly the limit is allowed")
        #expect(try fixture.temporaryFiles().count == 1)
        #expect(throws: BlobStoreError.tooLarge(limitBytes: BlobLimits.imageBytesMax)) { try upload.append(chunk[0..<1]) }
        #expect(upload.bytes == BlobLimits.imageBytesMax, "the refused chunk was not written")
        #expect(try fixture.temporaryFiles().isEmpty, "the temporary file is removed at once")
    }

    @Test func exactlyTheLimitIsStored() throws {
        let fixture = try TemporaryBlobStore(syncs: false)
        defer { fixture.remove() }
        let blob = try fixture.put(ImageSamples.pngSized(BlobLimits.imageBytesMax), chunkBytes: 1024 * 1024)
        #expect(blob.bytes == BlobLimits.imageBytesMax)
        #expect(try fixture.store.read(blob.blobId)?.data.count == BlobLimits.imageBytesMax)
    }

    @Test func textIsRefusedAsSoonAsEnoughBytesArrived() throws {
        let fixture = try TemporaryBlobStore(syncs: false)
        defer { fixture.remove() }
        let upload = try fixture.store.beginUpload()
        let text = Array(String(repeating: "not an image at all. ", count: 10).utf8)
        try upload.append(text[0..<(ImageType.sniffBytes - 1)])
        #expect(try fixture.temporaryFiles().count == 1, "too early to tell")
        #expect(throws: BlobStoreError.unsupportedMediaType) { try upload.append(text[(ImageType.sniffBytes - 1)...]) }
        #expect(try fixture.temporaryFiles().isEmpty)
    }

    @Test func aGIFIsRefused() throws {
        let fixture = try TemporaryBlobStore(syncs: false)
        defer { fixture.remove() }
        #expect(throws: BlobStoreError.unsupportedMediaType) { try fixture.put(ImageSamples.gif + [UInt8](repeating: 0, count: 100)) }
        #expect(throws: BlobStoreError.unsupportedMediaType) { try fixture.put(ImageSamples.gif) }
        #expect(try fixture.temporaryFiles().isEmpty)
    }

    @Test func anEmptyUploadIsRefused() throws {
        let fixture = try TemporaryBlobStore(syncs: false)
        defer { fixture.remove() }
        let upload = try fixture.store.beginUpload()
        #expect(throws: BlobStoreError.empty) { try upload.finish() }
        #expect(try fixture.temporaryFiles().isEmpty)
    }

    @Test func aTruncatedPNGIsRefusedAtFinish() throws {
        let fixture = try TemporaryBlobStore(syncs: false)
        defer { fixture.remove() }
        #expect(throws: BlobStoreError.unsupportedMediaType) { try fixture.put(Array(ImageSamples.png.prefix(8))) }
        #expect(try fixture.temporaryFiles().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.store.directory) == ["tmp"], "no blob was placed")
    }

    @Test func anAbandonedOrDroppedUploadLeavesNoFile() throws {
        let fixture = try TemporaryBlobStore(syncs: false)
        defer { fixture.remove() }
        let upload = try fixture.store.beginUpload()
        try upload.append(ImageSamples.png[...])
        upload.abandon()
        upload.abandon()
        #expect(try fixture.temporaryFiles().isEmpty)
        do {
            let dropped = try fixture.store.beginUpload()
            try dropped.append(ImageSamples.png[...])
            #expect(try fixture.temporaryFiles().count == 1)
        }
        #expect(try fixture.temporaryFiles().isEmpty, "deinit removes what neither finish nor abandon did")
    }
}
