import Blobs
import EventSourcing
import Foundation
import Testing

@Suite struct BlobEventCodingTests {
    /// Uploads are read straight from the JSON nodes (`NodeDecodable`): the same values as the
    /// Codable path for random variants and every one-change mutation.
    @Test func anUploadReadFromTheNodesAgreesWithTheCodablePath() throws {
        var random = SystemRandomNumberGenerator()
        let upload = BlobEvent.Uploaded(
            blobId: String(repeating: "ab", count: 32), contentType: ImageType.png.rawValue, bytes: 1_234, uploaderId: "u1",
            uploadedAt: Date(timeIntervalSince1970: 1_800_000_000.25))
        let problems = try NodeDecodingAgreement.disagreements(upload, rounds: 100, using: &random)
        #expect(problems.isEmpty, "\(problems.prefix(3))")
    }

    @Test func anUploadRoundTripsThroughItsStoredForm() throws {
        let event = BlobEvent.uploaded(.init(
            blobId: String(repeating: "ab", count: 32), contentType: ImageType.png.rawValue, bytes: 1_234,
            uploaderId: "u1", uploadedAt: Date(timeIntervalSince1970: 1_800_000_000.25)))
        let decoded = try BlobEvent.decode(typeName: event.typeName, schemaVersion: event.schemaVersion, data: event.encodeData())
        #expect(decoded == event)
        #expect(event.typeName == "blob.uploaded")
        #expect(event.streamID == "blob-" + String(repeating: "ab", count: 32))
        #expect(event.tags == ["blob:" + String(repeating: "ab", count: 32), "user:u1"])
        #expect(try BlobEvent.decode(typeName: "albums.groupCreated", schemaVersion: 1, data: Data("{}".utf8)) == nil)
    }
}
