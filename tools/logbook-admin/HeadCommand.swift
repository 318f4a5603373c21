import ArgumentParser
import EventLog
import PostgresEventLog
import Foundation

/// `head`: the log's chain head, to publish; `verify --head` later proves the log against it.
struct HeadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "head",
        abstract: "Print the log's chain head (position and SHA-256 chain hash) to publish.",
        discussion: """
            Prints POS:HASH, the form verify --head takes. The hash at POS commits to every event up \
            to POS (docs/record-format.md "Hash chain"), so a head published now lets anyone prove \
            later that the log up to POS was not rewritten.
            """
    )

    @OptionGroup var dataDirectory: DataDirectoryOption

    @Flag(help: "Print {\"position\":…,\"hash\":\"…\"} instead.")
    var json = false

    func run() async throws {
        let log = try await dataDirectory.openLog()
        defer { log.closeNow() }
        guard let head = try await log.chainHead() else { throw AdminError.noChain }
        if json {
            print(#"{"hash":"\#(head.hashHex)","position":\#(head.position)}"#)
        } else {
            print(head.description)
        }
    }
}
