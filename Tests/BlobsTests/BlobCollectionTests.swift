import BlobStore
import Blobs
import Foundation
import Testing

@Suite struct BlobCollectionTests {
    private let day: TimeInterval = 24 * 3_600

    @Test func onlyOldUnreferencedBlobsAreDeleted() throws {
        let fixture = try TemporaryBlobStore(syncs: false)
        defer { fixture.remove() }
        let referencedOld = try fixture.put(ImageSamples.pngSized(1_000, seed: 1))
        let unreferencedOld = try fixture.put(ImageSamples.pngSized(2_000, seed: 2))
        let unreferencedOld2 = try fixture.put(ImageSamples.pngSized(3_000, seed: 3))
        let unreferencedYoung = try fixture.put(ImageSamples.pngSized(4_000, seed: 4))
        for blob in [referencedOld, unreferencedOld, unreferencedOld2] {
            try fixture.age(fixture.file(of: blob.blobId), by: 2 * day)
        }
        let cutoff = Date().addingTimeInterval(-day)

        let dryRun = try fixture.store.collectable(keeping: [referencedOld.blobId], olderThan: cutoff)
        #expect(Set(dryRun.deleted) == [unreferencedOld.blobId, unreferencedOld2.blobId])
        #expect(fixture.store.exists(unreferencedOld.blobId), "a dry run deletes nothing")

        let collection = try fixture.store.collect(keeping: [referencedOld.blobId], olderThan: cutoff)
        #expect(collection == dryRun)
        #expect(collection.deleted == [unreferencedOld.blobId, unreferencedOld2.blobId].sorted())
        #expect(collection.bytesFreed == 5_000)
        #expect(collection.temporaryFilesRemoved == 0)
        #expect(fixture.store.exists(referencedOld.blobId))
        #expect(fixture.store.exists(unreferencedYoung.blobId))
        #expect(!fixture.store.exists(unreferencedOld.blobId))
        #expect(try fixture.store.read(unreferencedOld2.blobId) == nil)

        let again = try fixture.store.collect(keeping: [referencedOld.blobId], olderThan: cutoff)
        #expect(again == BlobCollection())
    }

    @Test func staleTemporaryFilesAreRemovedAndFreshOnesKept() throws {
        let fixture = try TemporaryBlobStore(syncs: false)
        defer { fixture.remove() }
        let stale = try fixture.store.beginUpload()
        try stale.append(ImageSamples.png[...])
        let fresh = try fixture.store.beginUpload()
        try fresh.append(ImageSamples.jpeg[...])
        let staleName = try #require(try fixture.temporaryFiles().first { name in
            let path = fixture.store.directory + "/tmp/" + name
            return (try? Data(contentsOf: URL(fileURLWithPath: path))) == Data(ImageSamples.png)
        })
        try fixture.age(fixture.store.directory + "/tmp/" + staleName, by: 2 * day)

        let collection = try fixture.store.collect(keeping: [], olderThan: Date().addingTimeInterval(-day))
        #expect(collection == BlobCollection(deleted: [], bytesFreed: 0, temporaryFilesRemoved: 1))
        #expect(try fixture.temporaryFiles().count == 1)
        #expect(try fresh.finish().type == .jpeg, "an upload in progress is untouched")
        stale.abandon()
    }

    @Test func filesThatAreNoBlobsAreLeftAlone() throws {
        let fixture = try TemporaryBlobStore(syncs: false)
        defer { fixture.remove() }
        let blob = try fixture.put(ImageSamples.webpLossy)
        let shard = fixture.store.directory + "/" + blob.blobId.prefix(2)
        let stranger = shard + "/notes.txt"
        let misplaced = fixture.store.directory + "/" + (blob.blobId.hasPrefix("00") ? "01" : "00")
        try FileManager.default.createDirectory(atPath: misplaced, withIntermediateDirectories: true)
        try Data(ImageSamples.webpLossy).write(to: URL(fileURLWithPath: misplaced + "/" + blob.blobId))
        try Data("x".utf8).write(to: URL(fileURLWithPath: stranger))
        for path in [stranger, misplaced + "/" + blob.blobId, fixture.file(of: blob.blobId)] {
            try fixture.age(path, by: 2 * day)
        }
        let collection = try fixture.store.collect(keeping: [], olderThan: Date().addingTimeInterval(-day))
        #expect(collection.deleted == [blob.blobId])
        #expect(FileManager.default.fileExists(atPath: stranger))
        #expect(FileManager.default.fileExists(atPath: misplaced + "/" + blob.blobId))
    }

    /// An entity about to reference an old, not yet referenced blob keeps it first: a collection
    /// that read the references before the entity existed then finds the file young.
    @Test func keepingABlobGivesItAFreshGracePeriod() throws {
        let fixture = try TemporaryBlobStore(syncs: false)
        defer { fixture.remove() }
        let kept = try fixture.put(ImageSamples.pngSized(1_000, seed: 3))
        let dropped = try fixture.put(ImageSamples.pngSized(1_000, seed: 4))
        for blob in [kept, dropped] { try fixture.age(fixture.file(of: blob.blobId), by: 2 * day) }
        #expect(try fixture.store.keep(kept.blobId))
        #expect(try !fixture.store.keep(String(repeating: "0", count: 64)), "no such blob")
        #expect(try !fixture.store.keep("../../etc/passwd"), "not a blob id")
        let collection = try fixture.store.collect(keeping: [], olderThan: Date().addingTimeInterval(-day))
        #expect(collection.deleted == [dropped.blobId])
        #expect(fixture.store.exists(kept.blobId))
    }

    @Test(.timeLimit(.minutes(2)))
    func aCollectionRacingUploadsOfTheSameBytesNeverLosesAnAcknowledgedOne() throws {
        let fixture = try TemporaryBlobStore(syncs: false)
        defer { fixture.remove() }
        let bytes = ImageSamples.pngSized(50_000, seed: 9)
        var overlapped = 0
        for round in 0..<5 {
            // Old unreferenced blobs around the raced one, so the collection takes a while.
            var old = [try fixture.put(bytes).blobId]
            for index in 0..<200 { old.append(try fixture.put(ImageSamples.pngSized(200, seed: UInt8(index % 256)) + [UInt8(round), UInt8(index / 256)]).blobId) }
            for blobId in old { try fixture.age(fixture.file(of: blobId), by: 2 * day) }
            // The collection on a thread of its own and the upload on this one, which waits for
            // it without yielding: on the cooperative pool, a busy machine let the collection
            // finish before the test was scheduled again, and nothing raced.
            let started = Flag()
            let finished = DispatchSemaphore(value: 0)
            let result = Collected()
            let store = fixture.store
            // A thread, not a dispatch queue: on Linux the global queues are the cooperative
            // pool's threads, which the rest of the suite keeps busy.
            Thread.detachNewThread {
                started.raise()
                result.deleted = (try? store.collect(keeping: [], olderThan: Date().addingTimeInterval(-3_600)).deleted) ?? []
                result.end = Date()
                finished.signal()
            }
            while !started.isRaised { sched_yield() }
            let uploadStarted = Date()
            let uploaded = try fixture.put(bytes, chunkBytes: 4_096)
            finished.wait()
            // The race: an upload of those bytes under way while the collection runs. (Its
            // acknowledgement may wait for the collection: uploads and collections take turns
            // on `collect.lock` for the rename, so "acknowledged before the end" is not the test.)
            if uploadStarted < result.end { overlapped += 1 }
            #expect(result.deleted.count >= 200)
            // Either the collection deleted the old file first (the upload then placed a new one)
            // or the upload refreshed it first (it is then young and kept): present both ways.
            #expect(fixture.store.exists(uploaded.blobId), "an acknowledged upload is in the store")
        }
        #expect(overlapped > 0, "uploads were under way while a collection ran")
    }
}

/// What the collecting thread found, read by the test after `finished`.
private final class Collected: @unchecked Sendable {
    var deleted: [String] = []
    var end = Date.distantPast
}

/// A one-way signal between a task and the test.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false
    func raise() { lock.withLock { raised = true } }
    var isRaised: Bool { lock.withLock { raised } }
}
