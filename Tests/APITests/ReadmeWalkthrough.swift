import Foundation

/// The README's walk-through as a shell script: every `sh` block that talks to the README's
/// server address, in order, for one shell, so that the variables one block sets (`TOKEN`,
/// `HOUSE`) serve the next, as they do for a reader who pastes them one after the other.
///
/// The script runs `curl` through a function that reports each call on standard error: its HTTP
/// status, method and URL, curl's exit code, and the status the README promises for it. That is
/// 2xx, unless the command's comment names another (`# 403 not_an_admin`).
struct ReadmeWalkthrough {
    /// Where the README's commands expect the server (`swift run logbook serve`'s default).
    static let readmeAddress = "localhost:8080"
    /// Where the README's commands keep a file; the script gets a path of its own.
    static let readmeScratchFile = "/tmp/photo.png"
    /// How long a streaming call (`curl -N`) is held open before the script goes on.
    static let streamSecondsMax = 2
    /// How long any other call may take before it counts as failed.
    static let callSecondsMax = 30

    /// The blocks that talk to the server, as the README has them.
    let blocks: [String]

    init(readme: String) {
        blocks = readme.matches(of: /```sh\n(?<body>[\s\S]*?)```/).map { String($0.output.body) }
            .filter { $0.contains(Self.readmeAddress) }
    }

    /// The `curl` invocations the blocks hold (each starts `curl -`): how many reports a
    /// complete run makes.
    var curlCalls: Int {
        blocks.reduce(0) { $0 + $1.matches(of: /(^|[\s(])curl -/).count }
    }

    /// The script: the reporting `curl`, then each command of the blocks (its continuation lines
    /// joined) after the status it must answer, with the server at `address` (`host:port`) and
    /// the scratch file at `scratchFile`.
    func script(address: String, scratchFile: String) -> String {
        var lines = [Self.prelude]
        for block in blocks {
            for command in Self.commands(of: block) {
                let expected = command.firstMatch(of: /\s#\s*(?<status>[1-5]\d\d)\b/).map { String($0.output.status) } ?? "2xx"
                lines.append("__expect=\(expected)")
                lines.append(command
                    .replacingOccurrences(of: Self.readmeAddress, with: address)
                    .replacingOccurrences(of: Self.readmeScratchFile, with: scratchFile))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `block`'s commands: a line ending in `\` goes on in the next.
    static func commands(of block: String) -> [String] {
        var commands: [String] = []
        var current = ""
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            current += current.isEmpty ? String(line) : "\n" + line
            if !line.hasSuffix("\\") {
                if !current.trimmingCharacters(in: .whitespaces).isEmpty { commands.append(current) }
                current = ""
            }
        }
        if !current.isEmpty { commands.append(current) }
        return commands
    }

    /// An unset variable ends the script (`set -u`): the calls after it never report, which the
    /// count of reports catches. Each call's report is two lines, since curl's exit code is known
    /// only after its `-w` output.
    private static let prelude = """
        set -u
        __expect=2xx
        curl() {
          local limit=\(callSecondsMax) streaming=0 argument
          for argument in "$@"; do
            if [ "$argument" = "-N" ]; then limit=\(streamSecondsMax); streaming=1; fi
          done
          command curl --max-time "$limit" -w '%{stderr}README-CALL %{http_code} %{method} %{url_effective}\\n' "$@"
          echo "README-DONE $? $streaming $__expect" >&2
        }
        """

    /// One call of a run, as its reports say.
    struct Call: CustomStringConvertible {
        let status: Int
        let method: String
        let url: String
        let curlExit: Int
        let streaming: Bool
        /// `2xx`, or the one status the README names.
        let expected: String

        /// Whether curl ended well and the status is the one promised. Exit 23 is a reader that
        /// stopped reading (`| head -c 300`); 28 on a stream is the limit ending a stream that
        /// stayed open, which is what a stream should do.
        var isAsExpected: Bool {
            let curlEnded = curlExit == 0 || curlExit == 23 || (streaming && curlExit == 28)
            let statusAsPromised = expected == "2xx" ? (200..<300).contains(status) : String(status) == expected
            return curlEnded && statusAsPromised
        }

        var description: String { "\(method) \(url): \(status), curl exit \(curlExit), README says \(expected)" }
    }

    /// The calls a run's standard error reports, in order. A report may follow curl's progress
    /// meter on the same line (a streaming call without `-s`).
    static func calls(reportedIn standardError: String) -> [Call] {
        var calls: [Call] = []
        var pending: [Substring]?
        for line in standardError.split(whereSeparator: \.isNewline) {
            if let start = line.range(of: "README-CALL ") {
                pending = line[start.upperBound...].split(separator: " ", maxSplits: 2)
            } else if let start = line.range(of: "README-DONE "), let call = pending {
                let done = line[start.upperBound...].split(separator: " ")
                guard call.count == 3, done.count == 3 else { continue }
                calls.append(Call(
                    status: Int(call[0]) ?? 0, method: String(call[1]), url: String(call[2]),
                    curlExit: Int(done[0]) ?? -1, streaming: done[1] == "1", expected: String(done[2])))
                pending = nil
            }
        }
        return calls
    }
}
