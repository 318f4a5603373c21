import Foundation
import HummingbirdTesting
import Testing
@testable import API

/// `logbook-admin blobs gc` beside a server's data directory: deletes only the images no live
/// entity references and that are older than the grace period, says what it freed, and refuses
/// to collect when it cannot know the references.
@Suite("Blobs: logbook-admin blobs gc", .timeLimit(.minutes(3)))
struct BlobsGCCLITests {
    @Test func gcDeletesOnlyOldUnreferencedImagesAndSaysWhatItFreed() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let oldUnused = TestImages.png(81)
        let (shown, oldUnusedId, youngUnused) = try await server.test { client in
            let (_, ann) = try await client.register("ann@example.org")
            let shown = try await client.uploadedBlob(TestImages.png(80), token: ann)
            let created = try await client.send(.post, "/v1/groups", json: ["name": "Trips"], token: ann)
            let groupId = try #require(created.json["groupId"] as? String)
            let photo = try await client.send(.post, "/v1/groups/\(groupId)/photos", json: ["blobId": shown, "description": "Pier"], token: ann)
            try #require(photo.status == .created, "\(photo.text)")
            return (shown, try await client.uploadedBlob(oldUnused, token: ann), try await client.uploadedBlob(TestImages.png(82), token: ann))
        }
        for blobId in [shown, oldUnusedId] { try age(server, blobId, byHours: 48) }

        let dryRun = try await AdminTool.run(["blobs", "gc", "--data-dir", server.directory, "--grace-hours", "0", "--dry-run", "--list"])
        #expect(dryRun.status == 0, "\(dryRun.output)")
        #expect(dryRun.output.contains("would delete 2 blobs"), "\(dryRun.output)")
        #expect(dryRun.output.contains(oldUnusedId) && dryRun.output.contains(youngUnused) && !dryRun.output.contains(shown))
        #expect(server.storedBlobFiles().count == 3, "a dry run deletes nothing")

        let gc = try await AdminTool.run(["blobs", "gc", "--data-dir", server.directory])
        #expect(gc.status == 0, "\(gc.output)")
        #expect(gc.output.contains("deleted 1 blobs (\(oldUnused.count) bytes"), "\(gc.output)")
        #expect(gc.output.contains("1 blobs referenced"), "\(gc.output)")
        #expect(Set(server.storedBlobFiles()) == [path(shown), path(youngUnused)])

        let again = try await AdminTool.run(["blobs", "gc", "--data-dir", server.directory])
        #expect(again.output.contains("deleted 0 blobs (0 bytes"), "\(again.output)")
    }

    @Test func gcRefusesWithoutReadModelsAndForBadArguments() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let blobId = try await server.test { client in
            let (_, ann) = try await client.register("ann@example.org")
            return try await client.uploadedBlob(TestImages.png(90), token: ann)
        }
        try age(server, blobId, byHours: 48)
        server.runtime.close()
        try FileManager.default.removeItem(atPath: server.directory + "/readmodels")

        let refused = try await AdminTool.run(["blobs", "gc", "--data-dir", server.directory, "--grace-hours", "0"])
        #expect(refused.status == 1, "\(refused.output)")
        #expect(refused.output.contains("no read models"), "\(refused.output)")
        #expect(server.storedBlobFiles() == [path(blobId)], "nothing is collected on an unknown set of references")

        for bad in [["--grace-hours", "-1"], ["--grace-hours", "100000"], ["--grace-hours", "soon"], ["--wait-seconds", "601"]] {
            let result = try await AdminTool.run(["blobs", "gc", "--data-dir", server.directory] + bad)
            #expect(result.status == 2, "\(bad): \(result.output)")
        }
        let missing = try await AdminTool.run(["blobs", "gc", "--data-dir", server.directory + "/nowhere"])
        #expect(missing.status == 2, "\(missing.output)")
    }

    private func path(_ blobId: String) -> String { "\(blobId.prefix(2))/\(blobId)" }

    /// Sets the blob file's modification time `hours` into the past: the age gc judges by.
    private func age(_ server: TestServer, _ blobId: String, byHours hours: Double) throws {
        let file = server.directory + "/blobs/" + path(blobId)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-hours * 3_600)], ofItemAtPath: file)
    }
}
