import ArgumentParser
import BlobStore
import Blobs
import EventLog
import EventSourcing
import Foundation
import LMDB
import Projections

/// `backup DIR`: a consistent hot copy of a data directory while its server writes: the read
/// models, the log, the images the copied log references, the personal data keys and the
/// secret key, into a new or empty DIR that a server (or this tool) opens as it is.
///
/// The order is what makes the parts agree without stopping the server:
/// 1. the read models first: their checkpoint is then at most the copied log's head, so a server
///    started on the copy catches them up instead of finding them past its log;
/// 2. the log, as of one read transaction (`Environment.copySnapshot`);
/// 3. the images its `blob.uploaded` events name: an upload's file is stored before its event
///    is appended, so every one the copy names is there (unless collection deleted it since);
/// 4. the keys after the log: a key made after the log copy seals nothing in it; a key erased
///    meanwhile leaves that user's data in the copy unreadable, as the erasure intended.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the log, read models, images and keys into a new or empty DIR, consistently, while the server runs.",
        discussion: """
            The log and the read models are each copied as of one read transaction (LMDB's compacting \
            copy), so the server goes on writing meanwhile; the images are those the copied log \
            references. Every file is fsync'd. The copy is then verified like `logbook-admin verify` \
            (unless --no-verify); \
            start a server on DIR (or point --data-dir at it) to use it. A server started with \
            LOGBOOK_SECRET_KEY keeps no secret.key: keep that key with the backup. Exits 0 when the \
            copy is complete and verifies, 1 when a read, a write or the verification fails, 2 when \
            DIR is not empty or the data directory cannot be opened.
            """
    )

    @OptionGroup var dataDirectory: DataDirectoryOption

    @Argument(help: ArgumentHelp("Where to write the copy: a new or empty directory.", valueName: "dir"))
    var target: String

    @Flag(name: .customLong("no-verify"), help: "Skip verifying the copy (a million events take seconds); run logbook-admin verify on it later.")
    var noVerify = false

    func run() throws {
        let source = try dataDirectory.resolvedPath()
        // Opening the log read-only checks there is one before anything is written.
        let headAtStart = try dataDirectory.openStore().headPosition()
        guard BackupFiles.isMissingOrEmptyDirectory(target) else {
            printToStandardError("logbook-admin: \(target) is not an empty directory: a backup goes into a new or empty one")
            throw ExitCode(AdminError.usageStatus)
        }
        do {
            try BackupFiles.makeDirectory(target)
            print("backup of \(source) into \(target); the log's head was \(headAtStart) when it began")
            if ReadModelSync.mayBeTorn(dataDirectory: source) {
                print("read models: not copied (written without sync when the machine restarted; a server builds them again from the log)")
            } else {
                let readModels = try copyEnvironment(source, "readmodels", databasesMax: 256)
                print(readModels.map { "read models: \($0) bytes" } ?? "read models: none (no server has run on the data directory yet)")
            }
            guard let logBytes = try copyEnvironment(source, "log", databasesMax: EnvironmentOptions().databasesMax) else {
                throw BackupFiles.Failure("copy", source + "/log", errno: ENOENT)
            }
            let copy = try openCopy()
            let head = try copy.headPosition()
            let chain = try copy.chainHead().map { " (chain head \($0))" } ?? ""
            print("log: " + (head == 0 ? "empty" : "positions 1…\(head)") + ", \(logBytes) bytes\(chain)")
            let blobs = try copyBlobs(source, referencedBy: copy)
            print("images: \(blobs.copied) files, \(blobs.bytes) bytes"
                + (blobs.collected > 0 ? "; \(blobs.collected) more the log names were collected earlier (nothing showed them)" : ""))
            let keys = try BackupFiles.copyFiles(
                of: source + "/" + PersonalDataKeyStore.directoryName, into: target + "/" + PersonalDataKeyStore.directoryName, mode: 0o700)
            print("keys: \(keys.files) files")
            try copySecretKey(source)
            try BackupFiles.syncDirectory(target)
            guard blobs.damaged.isEmpty else {
                printToStandardError("logbook-admin: images whose files do not hold their bytes (not copied): "
                    + blobs.damaged.joined(separator: ", "))
                throw ExitCode(AdminError.failureStatus)
            }
            guard !noVerify else {
                print("not verified (--no-verify)")
                return
            }
            let report = try copy.verify()
            guard report.isHealthy else {
                for line in VerifySummary(report).lines { print(line) }
                fflush(nil)
                throw AdminError.damaged(problemCount: report.problemCount)
            }
            print("verified: \(report.eventsChecked) events, healthy")
        } catch let failure as BackupFiles.Failure {
            printToStandardError("logbook-admin: backup failed: \(failure.description)")
            throw ExitCode(AdminError.failureStatus)
        } catch let error as LMDBError {
            printToStandardError("logbook-admin: backup failed: \(error.description)")
            throw ExitCode(AdminError.failureStatus)
        } catch let error as BlobStoreError {
            printToStandardError("logbook-admin: backup failed writing an image: \(error)")
            throw ExitCode(AdminError.failureStatus)
        }
    }

    /// Copies the LMDB environment `name` of `source` into the same place in the target; its
    /// size, nil when the source has none.
    private func copyEnvironment(_ source: String, _ name: String, databasesMax: UInt32) throws -> Int? {
        let path = source + "/" + name
        guard FileManager.default.fileExists(atPath: path + "/data.mdb") else { return nil }
        // Read-only: it can neither take the server's writer lock nor change a byte of the source.
        let environment = try Environment(path: path, options: EnvironmentOptions(databasesMax: databasesMax, readOnly: true))
        try BackupFiles.makeDirectory(target + "/" + name)
        return try environment.copySnapshot(toDirectory: target + "/" + name)
    }

    /// The copied log, read-only.
    private func openCopy() throws(AdminError) -> LMDBEventStore {
        var options = EventStoreOptions()
        options.readOnly = true
        do {
            return try LMDBEventStore(dataDirectory: target, options: options)
        } catch {
            throw .cannotOpen(target, error)
        }
    }

    /// What `copyBlobs` did.
    private struct BlobCopy {
        var copied = 0, bytes = 0, collected = 0
        var damaged: [String] = []
    }

    /// Copies the image of every `blob.uploaded` event of `log` (the copy) through a blob store
    /// in the target, which fsyncs each file and its directory and checks the bytes hash to the id.
    private func copyBlobs(_ source: String, referencedBy log: LMDBEventStore) throws -> BlobCopy {
        var ids = Set<String>()
        var next: UInt64 = 1
        while true {
            let page = try log.readType(BlobEvent.Uploaded.typeName, from: next, limit: 1_000)
            guard let last = page.last else { break }
            for event in page {
                ids.formUnion(event.tags.compactMap { $0.hasPrefix("blob:") ? String($0.dropFirst(5)) : nil }.filter(BlobLimits.isBlobId))
            }
            next = last.position + 1
        }
        var result = BlobCopy()
        guard !ids.isEmpty else { return result }
        let store = try BlobStore(directory: target + "/" + BlobStore.directoryName)
        let sourceDirectory = source + "/" + BlobStore.directoryName
        for blobId in ids.sorted() {
            // Collection deletes an image nothing shows once its grace period is over; the log keeps the upload.
            guard let data = try BackupFiles.contents(of: "\(sourceDirectory)/\(blobId.prefix(2))/\(blobId)") else {
                result.collected += 1
                continue
            }
            let upload = try store.beginUpload()
            do throws(BlobStoreError) {
                try upload.append(ArraySlice(data))
                let stored = try upload.finish()
                guard stored.blobId == blobId else {
                    // Bytes of another image under this name: not a copy of this one (and, unless the
                    // log names that other image too, nothing the copy should hold).
                    if !ids.contains(stored.blobId) { unlink("\(store.directory)/\(stored.blobId.prefix(2))/\(stored.blobId)") }
                    result.damaged.append(blobId)
                    continue
                }
            } catch {
                switch error {
                case .unsupportedMediaType, .empty, .tooLarge: result.damaged.append(blobId)
                case .io: throw error
                }
                continue
            }
            result.copied += 1
            result.bytes += data.count
        }
        return result
    }

    /// Copies `secret.key` (owner-only) when the data directory has one, and `secret.check`
    /// (the key's check value, ADR 0011), so a restored copy started with another key is refused.
    private func copySecretKey(_ source: String) throws(BackupFiles.Failure) {
        if let check = try BackupFiles.contents(of: source + "/secret.check") {
            try BackupFiles.create(target + "/secret.check", holding: check, mode: 0o600)
        }
        let name = "secret.key"
        guard let key = try BackupFiles.contents(of: source + "/" + name) else {
            print("secret key: none in the data directory (the server takes LOGBOOK_SECRET_KEY): keep that key with the backup")
            return
        }
        try BackupFiles.create(target + "/" + name, holding: key, mode: 0o600)
        print("secret key: copied")
    }
}
