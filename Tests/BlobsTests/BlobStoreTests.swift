import BlobStore
import Blobs
import Foundation
import Testing

@Suite struct BlobStoreTests {
    @Test func anUploadIsStoredUnderItsHashAndReadBack() throws {
        let fixture = try TemporaryBlobStore()
        defer { fixture.remove() }
        let bytes = ImageSamples.pngSized(200_000)
        let blob = try fixture.put(bytes, chunkBytes: 7_000)
        #expect(blob == StoredBlob(blobId: sha256Hex(bytes), type: .png, bytes: 200_000))
        #expect(FileManager.default.fileExists(atPath: fixture.file(of: blob.blobId)), "<dir>/<two hex>/<id>")
        #expect(fixture.store.exists(blob.blobId))
        let read = try #require(try fixture.store.read(blob.blobId))
        #expect(read.blob == blob)
        #expect([UInt8](read.data) == bytes)
        #expect(try fixture.temporaryFiles().isEmpty)
    }

    @Test func everyFormatIsStoredWithItsSniffedType() throws {
        let fixture = try TemporaryBlobStore(syncs: false)
        defer { fixture.remove() }
        let samples: [([UInt8], ImageType)] = [
            (ImageSamples.png, .png), (ImageSamples.jpeg, .jpeg), (ImageSamples.webpLossless, .webp), (ImageSamples.heic, .heic),
        ]
        for (bytes, type) in samples {
            let blob = try fixture.put(bytes, chunkBytes: 5)
            #expect(blob.type == type)
            #expect(try fixture.store.read(blob.blobId)?.blob.type == type)
        }
    }

    @Test func theSameBytesTwiceAreOneBlob() throws {
        let fixture = try TemporaryBlobStore()
        defer { fixture.remove() }
        let bytes = ImageSamples.pngSized(10_000, seed: 3)
        let first = try fixture.put(bytes)
        try fixture.age(fixture.file(of: first.blobId), by: 3_600)
        let second = try fixture.put(bytes, chunkBytes: 333)
        #expect(first == second)
        let shard = fixture.store.directory + "/" + first.blobId.prefix(2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: shard) == [first.blobId])
        #expect(try fixture.temporaryFiles().isEmpty)
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: fixture.file(of: first.blobId))[.modificationDate] as? Date)
        #expect(modified > Date().addingTimeInterval(-600), "uploading it again gives the file a new grace period")
    }

    @Test func unknownAndMalformedIdsReadAsAbsent() throws {
        let fixture = try TemporaryBlobStore(syncs: false)
        defer { fixture.remove() }
        let absent = String(repeating: "ab", count: 32)
        #expect(try fixture.store.read(absent) == nil)
        #expect(!fixture.store.exists(absent))
        for bad in ["", "tmp", "../blobs", "collect.lock", absent.uppercased(), String(absent.dropLast())] {
            #expect(try fixture.store.read(bad) == nil)
            #expect(!fixture.store.exists(bad))
        }
    }

    @Test func aFileThatIsNoImageReadsAsAbsent() throws {
        let fixture = try TemporaryBlobStore(syncs: false)
        defer { fixture.remove() }
        let bytes = ImageSamples.pngSized(1_000)
        let blob = try fixture.put(bytes)
        try Data(ImageSamples.text).write(to: URL(fileURLWithPath: fixture.file(of: blob.blobId)))
        #expect(try fixture.store.read(blob.blobId) == nil)
    }

    @Test func theStoreOpensAnExistingDirectory() throws {
        let fixture = try TemporaryBlobStore(syncs: false)
        defer { fixture.remove() }
        let blob = try fixture.put(ImageSamples.jpeg)
        let reopened = try BlobStore(directory: fixture.store.directory)
        #expect(try reopened.read(blob.blobId)?.data == Data(ImageSamples.jpeg))
    }

    @Test func aDirectoryThatCannotBeMadeIsAnIOError() throws {
        let fixture = try TemporaryBlobStore(syncs: false)
        defer { fixture.remove() }
        let file = fixture.root.appendingPathComponent("plain-file")
        try Data("x".utf8).write(to: file)
        #expect {
            _ = try BlobStore(directory: file.path + "/blobs")
        } throws: { error in
            if case .io(let operation, let code) = error as? BlobStoreError { operation == "mkdir" && code == ENOTDIR } else { false }
        }
    }
}
