import Foundation
import HummingbirdTesting
import Testing
@testable import API

/// The server's periodic collection deletes the images nothing references once past the grace
/// period, and keeps those a photo shows (the grace period is real time: files' ages are their
/// modification times).
@Suite("Blob collection service", .timeLimit(.minutes(3)))
struct BlobCollectionServiceTests {
    @Test func theServerCollectsOnlyUnreferencedImagesPastTheGracePeriod() async throws {
        let server = try TestServer {
            $0.blobCollectionInterval = .milliseconds(200)
            // Long enough to add the photo of a fresh upload on a loaded machine (5 s ran out once,
            // two suites at once on two cores); short enough to wait for.
            $0.blobGracePeriod = .seconds(20)
        }
        defer { server.remove() }
        let capture = LogCapture()
        try await server.test(logger: capture.logger()) { client in
            let (_, ann) = try await client.register("ann@example.org")
            let shown = try await client.uploadedBlob(TestImages.png(70), token: ann)
            let groupId = try #require(try await client.send(.post, "/v1/groups", json: ["name": "G"], token: ann).json["groupId"] as? String)
            #expect(try await client.send(.post, "/v1/groups/\(groupId)/photos", json: ["blobId": shown, "description": "kept"], token: ann).status == .created)
            let unused = try await client.uploadedBlob(TestImages.png(71), token: ann)
            #expect(server.storedBlobFiles().count == 2)
            try await waitUntil(timeout: .seconds(120)) { server.storedBlobFiles().count == 1 }
            #expect(server.storedBlobFiles() == ["\(shown.prefix(2))/\(shown)"])
            #expect(try await client.blob(unused, token: ann).code == "blob_not_found", "recorded, but its file is gone")
            #expect(try await client.blob(shown, token: ann).status == .ok)
        }
        #expect(capture.all.contains { $0.contains("image blobs collected") && $0.contains("deleted") })
        #expect(!capture.all.contains { $0.contains("ann@example.org") })
    }
}
