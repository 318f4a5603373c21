import ArgumentParser
import BlobStore
import EventLog
import Foundation
import Projections

/// `blobs gc`: deletes the image files no live entity references (no live photo, no current
/// avatar, no live news item) that are older than the grace period, as the server does
/// periodically. Safe beside a running server: the references come from the read models the
/// server keeps, and the store's lock orders each deletion against uploads of the same bytes.
struct BlobsGCCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gc",
        abstract: "Delete image blobs nothing references that are older than the grace period, and stale temporary uploads.",
        discussion: """
            The references are read from the blob references read model, which must have caught up \
            with the log (a running server keeps it so; after an upgrade, start the server once). \
            The tool waits up to --wait-seconds for it and refuses rather than collect on a stale view.
            """
    )

    @OptionGroup var dataDirectory: DataDirectoryOption

    @Option(name: .customLong("grace-hours"), help: "Keep files younger than this many hours (a blob is referenced only after its upload).")
    var graceHours = 24

    @Flag(name: .customLong("dry-run"), help: "Report what would be deleted; delete nothing.")
    var dryRun = false

    @Flag(help: "Also print each deleted blob id, one per line.")
    var list = false

    @Option(name: .customLong("wait-seconds"), help: "How long to wait for the read model to catch up with the log.")
    var waitSeconds = 10

    /// A year and more of grace is a typo, not a policy.
    static let graceHoursMax = 24 * 366

    func validate() throws {
        guard (0...Self.graceHoursMax).contains(graceHours) else { throw ValidationError("--grace-hours must be 0…\(Self.graceHoursMax)") }
        guard (0...600).contains(waitSeconds) else { throw ValidationError("--wait-seconds must be 0…600") }
    }

    func run() async throws {
        let path = try dataDirectory.resolvedPath()
        let collection: BlobCollection
        let referenced: Set<String>
        do {
            referenced = try await referencedBlobIds(dataDirectory: path)
            let store = try BlobStore(directory: (path as NSString).appendingPathComponent(BlobStore.directoryName))
            let cutoff = Date().addingTimeInterval(-Double(graceHours) * 3_600)
            collection = dryRun
                ? try store.collectable(keeping: referenced, olderThan: cutoff)
                : try store.collect(keeping: referenced, olderThan: cutoff)
        } catch let refusal as Refusal {
            printToStandardError("logbook-admin: \(refusal.description)")
            throw ExitCode(AdminError.failureStatus)
        } catch let error as BlobStoreError {
            printToStandardError("logbook-admin: the blob store failed: \(error)")
            throw ExitCode(AdminError.failureStatus)
        } catch let error as ReadModelError {
            printToStandardError("logbook-admin: reading the blob references failed: \(error.description)")
            throw ExitCode(AdminError.failureStatus)
        }
        if list { for blobId in collection.deleted { print(blobId) } }
        print(Self.summary(collection, referenced: referenced.count, dryRun: dryRun))
    }

    /// One line: `deleted 3 blobs (1234 bytes, 1.2 MB) …`, or `would delete …` on a dry run.
    static func summary(_ collection: BlobCollection, referenced: Int, dryRun: Bool) -> String {
        let megabytes = String(format: "%.1f", Double(collection.bytesFreed) / 1_000_000)
        return (dryRun ? "would delete" : "deleted") + " \(collection.deleted.count) blobs (\(collection.bytesFreed) bytes, \(megabytes) MB)"
            + " and \(collection.temporaryFilesRemoved) stale temporary files; \(referenced) blobs referenced"
    }

    /// The blobs the read model says are referenced, once it includes every event the log had
    /// when the tool started: a read model behind the log (or not built yet) would miss
    /// references and send live images to the bin.
    private func referencedBlobIds(dataDirectory path: String) async throws -> Set<String> {
        let log = try dataDirectory.openStore()
        let head = try log.headPosition()
        guard head > 0 else { return [] }
        guard FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent("readmodels/data.mdb")) else {
            throw Refusal("no read models in \(path) yet: start the server on it once")
        }
        let engine: ProjectionEngine<LMDBEventStore>
        do {
            engine = try ProjectionEngine(log: log, dataDirectory: path, projections: BlobProjections.all, readOnly: true)
        } catch {
            throw AdminError.cannotOpenReadModels(path, error)
        }
        let deadline = ContinuousClock.now + .seconds(waitSeconds)
        while true {
            let status = try await engine.status().first { $0.name == BlobProjections.references.name }
            guard let status, status.state == .serving else {
                throw Refusal("the blob references read model is \(status?.state.rawValue ?? "missing"): start the server so it rebuilds it")
            }
            if status.checkpoint >= head { break }
            guard ContinuousClock.now < deadline else {
                throw Refusal("the blob references read model is at \(status.checkpoint), behind the log's \(head): start the server so it catches up")
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        return try BlobQueries(engine: engine).referencedBlobIds()
    }

    /// Why nothing was collected: printed, exit status 1.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
