import Blobs
import Crypto
import Foundation
import TestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `kill -9` during image uploads: every upload the server acknowledged (201) is complete after
/// the restart and served to its uploader, byte for byte, and no file under a blob id holds
/// anything but the bytes that hash to that id.
@Suite("Blobs: crash during uploads", .timeLimit(.minutes(3)))
struct BlobCrashTests {
    @Test func acknowledgedUploadsSurviveSIGKILLWholeAndNoFileIsHalfWritten() async throws {
        let directory = TemporaryDataDirectory()
        let server = try await ServerProcess(dataDirectory: directory.path)
        let client = server.client
        var tokens: [String] = []
        for index in 0..<3 { tokens.append(try await client.register("uploader\(index)@example.org", displayName: "U\(index)").token) }

        let ledger = UploadLedger()
        let workers = (0..<6).map { worker in
            Task.detached { [tokens] in
                var random = SystemRandomNumberGenerator()
                while !Task.isCancelled {
                    let image = CrashImages.png(bytes: Int.random(in: 50_000...2_500_000, using: &random), using: &random)
                    let token = tokens[worker % tokens.count]
                    ledger.started()
                    guard let blobId = try? await CrashImages.upload(image, to: client.base, token: token) else {
                        ledger.ended()
                        return
                    }
                    ledger.acknowledge(Acknowledged(blobId: blobId, bytes: image, token: token))
                    ledger.ended()
                }
            }
        }
        let deadline = ContinuousClock.now + .seconds(90)
        while ledger.acknowledgedCount < 12 || ledger.inFlight == 0 {
            try #require(ContinuousClock.now < deadline, "uploads stalled: \(ledger.acknowledgedCount) acknowledged")
            try await Task.sleep(for: .milliseconds(5))
        }
        let inFlightAtKill = ledger.inFlight
        server.kill()
        await server.process.exited()
        for worker in workers { _ = await worker.result }
        let acknowledged = ledger.acknowledged
        #expect(inFlightAtKill > 0, "the server died with uploads in progress")
        #expect(server.process.terminationReason == .uncaughtSignal && server.process.terminationStatus == SIGKILL)

        #expect(try filesWhoseBytesDoNotHashToTheirName(in: directory.path + "/blobs").isEmpty)

        let restarted = try await ServerProcess(dataDirectory: directory.path)
        for upload in acknowledged {
            let reply = try await CrashImages.download(upload.blobId, from: restarted.client.base, token: upload.token)
            #expect(reply.status == 200, "\(upload.blobId): \(reply.status)")
            #expect(reply.body == upload.bytes, "\(upload.blobId) is served whole")
            #expect(SHA256.hash(data: upload.bytes).map { String(format: "%02x", $0) }.joined() == upload.blobId)
        }
        #expect(try filesWhoseBytesDoNotHashToTheirName(in: directory.path + "/blobs").isEmpty)
        #expect(try await restarted.terminate())
    }

    /// Paths under `root` (outside `tmp/`) whose content's SHA-256 is not their file name.
    private func filesWhoseBytesDoNotHashToTheirName(in root: String) throws -> [String] {
        var wrong: [String] = []
        var checked = 0
        for shard in try FileManager.default.contentsOfDirectory(atPath: root) where shard.count == 2 {
            for name in try FileManager.default.contentsOfDirectory(atPath: root + "/" + shard) {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: root + "/" + shard + "/" + name))
                let hash = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
                if hash != name || !name.hasPrefix(shard) { wrong.append(shard + "/" + name) }
                checked += 1
            }
        }
        #expect(checked > 0, "blob files were checked")
        return wrong
    }
}

/// An upload the server answered 201 for.
struct Acknowledged: Sendable {
    let blobId: String
    let bytes: Data
    let token: String
}

/// What the upload workers did, shared between them and the test.
final class UploadLedger: @unchecked Sendable {
    private let lock = NSLock()
    private var uploads: [Acknowledged] = []
    private var running = 0

    func started() { lock.withLock { running += 1 } }
    func ended() { lock.withLock { running -= 1 } }
    func acknowledge(_ upload: Acknowledged) { lock.withLock { uploads.append(upload) } }

    var inFlight: Int { lock.withLock { running } }
    var acknowledgedCount: Int { lock.withLock { uploads.count } }
    var acknowledged: [Acknowledged] { lock.withLock { uploads } }
}

/// Images and HTTP for the crash test, over URLSession against the real server.
enum CrashImages {
    /// `bytes` bytes that sniff as PNG (a small one), then random, so each is a new blob.
    static func png(bytes: Int, using random: inout some RandomNumberGenerator) -> Data {
        var image = SolidPNG.image(width: 1, height: 1, red: 0, green: 0, blue: 0)
        image.reserveCapacity(bytes)
        while image.count < bytes {
            withUnsafeBytes(of: random.next()) { image.append(contentsOf: $0.prefix(bytes - image.count)) }
        }
        return image
    }

    /// POSTs `image` to `/v1/blobs`; the blob id of a 201, nil for any other answer; throws when
    /// the connection fails (the server died).
    static func upload(_ image: Data, to base: String, token: String) async throws -> String? {
        var request = URLRequest(url: URL(string: base + "/v1/blobs")!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("image/png", forHTTPHeaderField: "Content-Type")
        request.timeoutInterval = 60
        let (data, response) = try await URLSession.shared.upload(for: request, from: image)
        guard (response as? HTTPURLResponse)?.statusCode == 201 else { return nil }
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        return json?["blobId"] as? String
    }

    /// `GET /v1/blobs/<id>` as `token`.
    static func download(_ blobId: String, from base: String, token: String) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: URL(string: base + "/v1/blobs/" + blobId)!)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }
}
