import ArgumentParser
import EventLog
import Foundation

/// `records`: the stored records, byte for byte, with their chain hashes, for a verifier that
/// does not trust this build (tools/verify-chain/verify_chain.py).
struct RecordsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "records",
        abstract: "Export every stored record (base64) with its chain hash, one JSON object per line.",
        discussion: """
            Each line: {"hash":"<64 hex digits, the stored chain hash>","position":N,"record":"<base64 \
            of the record exactly as stored>"}, oldest first, from one snapshot. "hash" is null where \
            none is stored. Check it independently with \
            tools/verify-chain/verify_chain.py --head POS:HASH FILE.
            """
    )

    @OptionGroup var dataDirectory: DataDirectoryOption

    @Option(name: .customLong("to"), help: ArgumentHelp("Stop after this position.", valueName: "position"))
    var lastPosition: UInt64?

    func run() throws {
        let store = try dataDirectory.openStore()
        let output = FileHandle.standardOutput
        var buffer = Data()
        try store.forEachRecord(upTo: lastPosition ?? .max) { position, record, hash in
            let hashText = hash.map { #""\#(ChainHead(position: position, hash: $0).hashHex)""# } ?? "null"
            let line = #"{"hash":\#(hashText),"position":\#(position),"record":"\#(Data(record).base64EncodedString())"}"#
            buffer.append(contentsOf: line.utf8)
            buffer.append(UInt8(ascii: "\n"))
            if buffer.count >= 1 << 16 {
                output.write(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        output.write(buffer)
    }
}
