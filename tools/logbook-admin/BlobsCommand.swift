import ArgumentParser

/// `blobs`: the image files beside the log (`<data-dir>/blobs/`).
struct BlobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blobs",
        abstract: "Manage the image blobs stored beside the log.",
        subcommands: [BlobsGCCommand.self]
    )
}
