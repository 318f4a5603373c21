import BlobStore
import Blobs
import CommandHandling
import EventLog
import EventSourcing
import Foundation

/// Uploads of images of each size three ways, alternating: the disk's own rate (a plain file,
/// fsync, rename, directory fsync), `BlobStore` alone (hashing and sniffing added), and the store
/// plus the durable `blob.uploaded` append through the command handler (the server's whole path
/// but HTTP). Every file is removed after its upload, outside the timed span, so a run's disk use
/// stays at one image per path.
struct BlobUploadScenario {
    let sizes: [Int]
    let count: Int

    /// Bytes per append, as an HTTP body arrives in chunks.
    static let chunkBytes = 64 * 1024
    /// A whole 1×1 PNG (`SolidPNG`): what makes the bytes sniff as an image.
    static let header = [UInt8](SolidPNG.image(width: 1, height: 1, red: 0, green: 0, blue: 0))
    /// Its length: where an upload's stamp goes.
    static var headerBytes: Int { header.count }
    /// The store's limit.
    static let imageBytesMax = BlobLimits.imageBytesMax

    /// The paths measured, in report order.
    enum Path: String, CaseIterable {
        case disk = "disk (file+fsync+rename)"
        case store = "BlobStore"
        case storeAndLog = "BlobStore + log append"
    }

    func run(in directory: String) async throws -> ScenarioReport {
        let store = try BlobStore(directory: (directory as NSString).appendingPathComponent(BlobStore.directoryName))
        let plain = (directory as NSString).appendingPathComponent("plain")
        try FileManager.default.createDirectory(atPath: plain, withIntermediateDirectories: true)
        let log = try BenchLog.open(directory)
        defer { log.close() }
        let commands = CommandHandler(store: log)

        var report = ScenarioReport(
            scenario: "blobs", summary: "image uploads, \(count) per size and path, \(Self.chunkBytes / 1024) KiB chunks, durable",
            columns: [
                Column(key: "bytes", title: "bytes"), Column(key: "path", title: "path"), Column(key: "uploads", title: "uploads"),
                Column(key: "megabytesPerSecond", title: "MB/s"), Column(key: "p50Milliseconds", title: "p50 ms"),
                Column(key: "p99Milliseconds", title: "p99 ms"), Column(key: "ofDisk", title: "of disk"),
            ])
        for size in sizes {
            Progress.say("blobs: \(count) uploads of \(size) bytes on each path")
            var image = Self.image(bytes: size)
            var samples: [Path: [Duration]] = [:]
            for index in 0..<count {
                for (number, path) in Path.allCases.enumerated() {
                    Self.stamp(&image, index * Path.allCases.count + number)
                    let taken = try await upload(image, path, store: store, plain: plain, commands: commands, index: index)
                    samples[path, default: []].append(taken)
                }
            }
            let diskRate = Self.megabytesPerSecond(size, samples[.disk] ?? [])
            for path in Path.allCases {
                let taken = samples[path] ?? []
                let rate = Self.megabytesPerSecond(size, taken)
                let percentiles = Percentiles(taken)
                report.add([.count(size), .text(path.rawValue), .count(taken.count), .rate(rate), .milliseconds(percentiles.p50),
                            .milliseconds(percentiles.p99), .ratio(diskRate > 0 ? rate / diskRate : 0)])
            }
        }
        report.notes.append("MB/s = 10^6 bytes per second of upload time; 'of disk' = the path's MB/s over the disk's in the same run.")
        report.finish()
        return report
    }

    /// One upload of `image` along `path`; the time it took. Removes what it wrote afterwards.
    private func upload(
        _ image: [UInt8], _ path: Path, store: BlobStore, plain: String, commands: CommandHandler<LMDBEventStore>, index: Int
    ) async throws -> Duration {
        let clock = ContinuousClock()
        switch path {
        case .disk:
            let file = (plain as NSString).appendingPathComponent("image-\(index)")
            let taken = try clock.measure { try PlainFileWrite.write(image, to: file, chunkBytes: Self.chunkBytes) }
            unlink(file)
            return taken
        case .store, .storeAndLog:
            let start = clock.now
            let upload = try store.beginUpload()
            var offset = 0
            while offset < image.count {
                let end = min(offset + Self.chunkBytes, image.count)
                try upload.append(image[offset..<end])
                offset = end
            }
            let blob = try upload.finish()
            if path == .storeAndLog {
                let metadata = CommandMetadata(actor: "bench-uploader", now: Date(), commandID: .timeOrdered())
                let outcome = try await commands.handle(
                    BlobDecider.self, .recordUpload(blobId: blob.blobId, type: blob.type, bytes: blob.bytes), metadata: metadata)
                precondition(outcome.events.count == 1, "a new blob is recorded once")
            }
            let taken = clock.now - start
            unlink(store.directory + "/" + blob.blobId.prefix(2) + "/" + blob.blobId)
            return taken
        }
    }

    /// `bytes` bytes that sniff as PNG: a small PNG, then seeded noise (incompressible, like
    /// image data).
    static func image(bytes: Int) -> [UInt8] {
        var image = header
        var random = SplitMix64(seed: UInt64(bytes))
        image.reserveCapacity(bytes)
        while image.count < bytes { image.append(UInt8(truncatingIfNeeded: random.next())) }
        return image
    }

    /// Makes `image` unique for upload `number`: its bytes after the header carry the number.
    static func stamp(_ image: inout [UInt8], _ number: Int) {
        withUnsafeBytes(of: UInt64(number).littleEndian) { bytes in
            for (offset, byte) in bytes.enumerated() where headerBytes + offset < image.count { image[headerBytes + offset] = byte }
        }
    }

    /// Megabytes (10^6 bytes) per second over the summed upload time.
    static func megabytesPerSecond(_ size: Int, _ samples: [Duration]) -> Double {
        let seconds = samples.reduce(Duration.zero, +).seconds
        return seconds > 0 ? Double(size * samples.count) / 1_000_000 / seconds : 0
    }
}
