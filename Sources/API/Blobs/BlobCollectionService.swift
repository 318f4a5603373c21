import BlobStore
import Foundation
import Logging
import ServiceLifecycle

/// Collects the image blobs nothing references any more, every
/// `LogbookConfiguration.blobCollectionInterval`, alongside the HTTP server (what
/// `logbook-admin blobs gc` does on demand): a file no live photo, current avatar or live news
/// item shows, older than `blobGracePeriod`, is deleted. Ends at graceful shutdown.
struct BlobCollectionService: Service {
    let runtime: LogbookRuntime
    let logger: Logger

    func run() async {
        let interval = runtime.configuration.blobCollectionInterval
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return
                }
                collect()
            }
        }
    }

    /// One collection, logged with counts only: ids of images are not personal data, but which
    /// images went says nothing an operator needs.
    func collect() {
        let now = runtime.configuration.clock()
        let grace = runtime.configuration.blobGracePeriod
        let cutoff = now.addingTimeInterval(-Double(grace.components.seconds))
        do {
            let referenced = try runtime.blobReferences.referencedBlobIds()
            let collection = try runtime.blobs.collect(keeping: referenced, olderThan: cutoff)
            logger.info("image blobs collected", metadata: [
                "deleted": "\(collection.deleted.count)", "bytesFreed": "\(collection.bytesFreed)",
                "temporaryFilesRemoved": "\(collection.temporaryFilesRemoved)",
            ])
        } catch {
            logger.error("image blob collection failed", metadata: ["error": "\(error)"])
        }
    }
}
