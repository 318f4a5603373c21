import Foundation
import Glibc
import Testing
@testable import API

/// The data directory is the service user's alone: every file a server writes there (the log's
/// and the read models' LMDB files, the write-ahead files, the writer lock, images and their
/// lock, keys and markers, the secret key) is 0600 and every directory 0700, and a data
/// directory an earlier release wrote more loosely is tightened when a server opens it.
@Suite("Data directory modes", .timeLimit(.minutes(3)))
struct DataDirectoryModeTests {
    /// Every file and directory below `root` (not following links), with its mode's permission
    /// bits.
    static func modes(below root: String) -> [(path: String, isDirectory: Bool, mode: mode_t)] {
        var found: [(String, Bool, mode_t)] = []
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            var info = stat()
            guard lstat(root + "/" + relative, &info) == 0 else { continue }
            let kind = info.st_mode & S_IFMT
            guard kind == S_IFDIR || kind == S_IFREG else { continue }
            found.append((relative, kind == S_IFDIR, info.st_mode & 0o7777))
        }
        return found
    }

    private static func mode(of path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    /// Writes through a server what every store of the data directory keeps: accounts (keys),
    /// an erasure (its marker files), a house, images (blob files and their lock), a photo group;
    /// with the log's write-ahead mode and real syncs.
    private static func serveAndWrite(on directory: String) async throws {
        let runtime = try LogbookRuntime.forTests(on: directory, unsafeNoSync: false) { $0.writeAhead = true }
        try await runtime.serveForTests { client in
            let (_, ann) = try await client.register("ann@example.org")
            let (_, bob) = try await client.register("bob@example.org", displayName: "Bob")
            #expect(try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann).status == .created)
            let blobId = try await client.uploadedBlob(TestImages.png(9), token: ann)
            #expect(try await client.upload(TestImages.png(10), token: bob, method: .put, uri: "/v1/me/avatar").status == .ok)
            let group = try await client.send(.post, "/v1/groups", json: ["name": "Trip"], token: ann)
            let groupId = try #require(group.json["groupId"] as? String, "\(group.text)")
            let photo = try await client.send(.post, "/v1/groups/\(groupId)/photos", json: ["blobId": blobId, "description": "Sea"], token: ann)
            #expect(photo.status == .created, "\(photo.text)")
            let erased = try await client.send(.delete, "/v1/me", json: ["password": "correct horse"], token: bob)
            #expect(erased.status == .noContent, "\(erased.text)")
        }
        runtime.close()
    }

    @Test func everyFileAServerWritesIsItsUsersAlone() async throws {
        let directory = NSTemporaryDirectory() + "data-modes-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await Self.serveAndWrite(on: directory)

        #expect(Self.mode(of: directory) == 0o700, "the data directory it created")
        let entries = Self.modes(below: directory)
        let names = Set(entries.map(\.path))
        // What the stores wrote is all here, so the modes below are theirs.
        for expected in ["log/data.mdb", "log/lock.mdb", "log/writer.lock", "readmodels/data.mdb", "readmodels/lock.mdb",
                         "blobs/collect.lock", "blobs/tmp", "keys", "secret.key", PrivateDataDirectory.markerName] {
            #expect(names.contains(expected), "\(expected) in \(names.sorted())")
        }
        #expect(names.contains { $0.hasPrefix("keys/") && $0.hasSuffix(".key") } && names.contains { $0.hasSuffix(".erased") })
        // Ann's photo; Bob's avatar went with his erasure.
        #expect(entries.filter { $0.path.hasPrefix("blobs/") && !$0.isDirectory && $0.path.count > 60 }.count == 1, "one image")
        #expect(entries.count > 20, "\(names.sorted())")
        for entry in entries {
            #expect(entry.mode == (entry.isDirectory ? 0o700 : 0o600), "\(entry.path): \(String(entry.mode, radix: 8))")
        }
    }

    /// A point-in-time copy of the read models (`GET /v1/admin/as-of/…`) holds personal data
    /// opened, outside the data directory (in the temporary directory): just as private.
    @Test func aPointInTimeCopyIsItsUsersAlone() async throws {
        let server = try TestServer { $0.operatorToken = AdminFixture.operatorToken }
        defer { server.remove() }
        try await server.test { client in
            let (_, ann) = try await client.register("ann@example.org")
            let house = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann)
            let houseId = try #require(house.json["houseId"] as? String)
            let position = try await server.runtime.log.headPosition()
            let asOf = try await client.admin("/v1/admin/as-of/\(position)/houses/\(houseId)/scoreboard")
            #expect(asOf.status == .ok, "\(asOf.text)")
            // This server's copy is among them while it keeps it (and every other server's is made alike).
            let temporary = NSTemporaryDirectory()
            let copies = try FileManager.default.contentsOfDirectory(atPath: temporary).filter { $0.hasPrefix("logbook-as-of-\(position)-") }
            #expect(!copies.isEmpty)
            for copy in copies {
                #expect(Self.mode(of: temporary + copy) == 0o700, "\(copy)")
                for entry in Self.modes(below: temporary + copy) {
                    #expect(entry.mode == (entry.isDirectory ? 0o700 : 0o600), "\(copy)/\(entry.path): \(String(entry.mode, radix: 8))")
                }
            }
        }
    }

    /// A data directory of an earlier release, whose files were 0644 and directories 0755, is
    /// tightened to the owner's bits when a server opens it; nothing is loosened (a file 0400
    /// stays so), and a symbolic link is not followed out of the directory.
    @Test func anEarlierReleasesLooseDataDirectoryIsTightenedOnOpen() async throws {
        let directory = NSTemporaryDirectory() + "data-modes-" + UUID().uuidString
        let outside = NSTemporaryDirectory() + "data-modes-outside-" + UUID().uuidString
        defer {
            try? FileManager.default.removeItem(atPath: directory)
            try? FileManager.default.removeItem(atPath: outside)
        }
        try await Self.serveAndWrite(on: directory)
        // As an earlier release left it: without the marker of this one's tightening, loose.
        #expect(unlink(directory + "/" + PrivateDataDirectory.markerName) == 0)
        for entry in Self.modes(below: directory) where entry.path != "secret.key" {
            #expect(chmod(directory + "/" + entry.path, entry.isDirectory ? 0o755 : 0o644) == 0)
        }
        let readOnly = directory + "/blobs/tmp/kept-read-only"
        #expect(FileManager.default.createFile(atPath: readOnly, contents: Data("x".utf8), attributes: [.posixPermissions: 0o400]))
        #expect(FileManager.default.createFile(atPath: outside, contents: Data("y".utf8), attributes: [.posixPermissions: 0o644]))
        try FileManager.default.createSymbolicLink(atPath: directory + "/link-out", withDestinationPath: outside)
        #expect(Self.modes(below: directory).contains { $0.mode & 0o077 != 0 }, "loosened, as before")

        let runtime = try LogbookRuntime.forTests(on: directory, unsafeNoSync: true)
        runtime.close()

        for entry in Self.modes(below: directory) {
            let expected: mode_t = entry.path == "blobs/tmp/kept-read-only" ? 0o400 : entry.isDirectory ? 0o700 : 0o600
            #expect(entry.mode == expected, "\(entry.path): \(String(entry.mode, radix: 8))")
        }
        #expect(Self.mode(of: outside) == 0o644, "a link's target outside the data directory is not the service's to change")

        // Once: a file loosened since (by hand) is the operator's business, and no start walks
        // every image again.
        #expect(chmod(readOnly, 0o644) == 0)
        try LogbookRuntime.forTests(on: directory, unsafeNoSync: true).close()
        #expect(Self.mode(of: readOnly) == 0o644)
    }
}
