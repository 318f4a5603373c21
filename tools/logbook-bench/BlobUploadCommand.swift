import ArgumentParser

/// `blobs`: image uploads through the blob store, with and without their durable record in the
/// log, beside the disk's own rate for the same bytes.
struct BlobUploadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blobs",
        abstract: "Image upload throughput and latency (100 KB and 5 MB) against the disk's own write rate.",
        discussion: """
            Each upload goes through BlobStore (64 KiB chunks hashed and written, fsync, rename, directory \
            fsync) and then records blob.uploaded through the command handler with a durable append, as \
            the server does. The same bytes written to a plain file with fsync and rename, in the same \
            run, are the disk's rate. The three paths alternate upload by upload.
            """
    )

    @Option(help: "Image sizes in bytes, comma-separated (default: 100000,5000000).", transform: parseCounts)
    var sizes: [Int] = [100_000, 5_000_000]
    @Option(help: "Uploads per size and path.")
    var count = 50
    @OptionGroup var options: BenchOptions

    func validate() throws {
        guard count >= 1 else { throw ValidationError("--count must be positive") }
        guard sizes.allSatisfy({ (BlobUploadScenario.headerBytes...BlobUploadScenario.imageBytesMax).contains($0) }) else {
            throw ValidationError("--sizes must be \(BlobUploadScenario.headerBytes)…\(BlobUploadScenario.imageBytesMax) bytes each")
        }
    }

    func run() async throws {
        var printer = ReportPrinter(json: options.json)
        let scenario = BlobUploadScenario(sizes: sizes, count: count)
        printer.print(try await options.withDataDirectory("blobs") { try await scenario.run(in: $0) })
        try printer.finish()
    }
}
