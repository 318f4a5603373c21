import Blobs
import EventSourcing
import Foundation
import Testing

@Suite struct BlobDeciderTests {
    private let blobId = String(repeating: "0123456789abcdef", count: 4)
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func by(_ actor: String) -> CommandMetadata {
        CommandMetadata(actor: actor, now: now, commandID: UUID())
    }

    private func uploaded(by uploader: String) -> BlobEvent {
        .uploaded(.init(blobId: blobId, contentType: "image/png", bytes: 512, uploaderId: uploader, uploadedAt: now))
    }

    @Test func aFirstUploadIsRecordedForItsUploader() throws {
        let events = try BlobDecider.given([]).when(.recordUpload(blobId: blobId, type: .webp, bytes: 512), by("ann")).get()
        #expect(events == [.uploaded(.init(blobId: blobId, contentType: "image/webp", bytes: 512, uploaderId: "ann", uploadedAt: now))])
    }

    @Test func theSameUploaderAgainRecordsNothing() throws {
        let events = try BlobDecider.given([uploaded(by: "ann")]).when(.recordUpload(blobId: blobId, type: .png, bytes: 512), by("ann")).get()
        #expect(events.isEmpty)
    }

    @Test func anotherUploaderOfTheSameBytesIsRecordedToo() throws {
        let events = try BlobDecider.given([uploaded(by: "ann")]).when(.recordUpload(blobId: blobId, type: .png, bytes: 512), by("bob")).get()
        #expect(events == [uploaded(by: "bob")])
    }

    @Test func theBoundaryIsTheBlobsTag() {
        let boundary = BlobDecider.boundary(of: .recordUpload(blobId: blobId, type: .png, bytes: 1))
        #expect(boundary == .tag("blob:" + blobId))
    }

    @Test func aMalformedIdIsRefused() {
        for bad in ["", String(blobId.dropLast()), blobId.uppercased(), String(blobId.dropLast()) + "g", "../" + blobId.dropFirst(3), blobId + "0"] {
            let failure = BlobDecider.given([]).when(.recordUpload(blobId: bad, type: .png, bytes: 10), by("ann")).failure
            #expect(failure == .validationFailed([FieldError("blobId", FieldChecks.blobIdProblem)]), "\(bad)")
            #expect(failure?.code == "validation_failed")
            #expect(failure?.kind == .validation)
        }
    }

    @Test func aSizeOutOfRangeIsRefused() throws {
        for bad in [0, -1, BlobLimits.imageBytesMax + 1, Int.max] {
            let failure = BlobDecider.given([]).when(.recordUpload(blobId: blobId, type: .png, bytes: bad), by("ann")).failure
            #expect(failure?.fieldErrors.map(\.field) == ["bytes"], "\(bad)")
        }
        #expect(try BlobDecider.given([]).when(.recordUpload(blobId: blobId, type: .png, bytes: BlobLimits.imageBytesMax), by("ann")).get().count == 1)
    }

    @Test func blobIdsAreExactlySixtyFourLowercaseHexDigits() {
        #expect(BlobLimits.isBlobId(blobId))
        #expect(!BlobLimits.isBlobId(blobId.uppercased()))
        #expect(!BlobLimits.isBlobId(String(blobId.dropLast()) + "é"))
        #expect(!BlobLimits.isBlobId(String(blobId.dropLast(2)) + "é"), "63 characters, 64 UTF-8 bytes")
        #expect(!BlobLimits.isBlobId("tmp"))
    }
}
