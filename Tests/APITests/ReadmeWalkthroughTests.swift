import Foundation
import TestSupport
import Testing

/// The README's walk-through works as written: its commands, run by bash one after the other
/// against `logbook serve --demo`, each answer as the README says. Only the server's address and
/// the scratch image's path are changed. The server also has an operator token, for the
/// operator's block.
@Suite("README walk-through", .timeLimit(.minutes(3)))
struct ReadmeWalkthroughTests {
    /// The shell's output, and the calls it reported.
    private struct Run {
        let standardOutput: String
        let standardError: String
        let calls: [ReadmeWalkthrough.Call]
    }

    @Test func everyCommandOfTheReadmeAnswersAsItSays() async throws {
        // The README's blocks, then those of the pages it links that talk to the server, in its order.
        let pages = try ["README.md", "docs/running.md", "docs/apps.md", "docs/architecture.md"]
            .map { try String(contentsOf: PackageFiles.root.appendingPathComponent($0), encoding: .utf8) }
        let walkthrough = ReadmeWalkthrough(readme: pages.joined(separator: "\n"))
        // The household, operators, live updates, neighbourhood, quiz, workplace and albums blocks.
        try #require(walkthrough.blocks.count >= 7 && walkthrough.curlCalls >= 40, "found \(walkthrough.blocks.count) blocks")
        let directory = TemporaryDataDirectory()
        let operatorToken = "readme-operator-" + UUID().uuidString
        let server = try await ServerProcess(
            dataDirectory: directory.path, arguments: ["--demo"], environment: ["LOGBOOK_OPERATOR_TOKEN": operatorToken])
        defer { server.kill() }

        let run = try await Self.run(walkthrough, on: server, environment: ["LOGBOOK_OPERATOR_TOKEN": operatorToken])

        #expect(run.calls.count == walkthrough.curlCalls, "every call ran and reported: \(run.standardError.suffix(2_000))")
        for call in run.calls where !call.isAsExpected {
            Issue.record("not as the README says: \(call)")
        }
        #expect(run.calls.contains { $0.expected != "2xx" }, "the README's refusals were checked too")
        #expect(run.calls.filter(\.streaming).count == 2 && run.calls.filter(\.streaming).allSatisfy { $0.status == 200 })
        #expect(run.standardOutput.contains("a PNG"), "the downloaded photo is the PNG the README says")
        #expect(!run.standardError.contains("unbound variable"), "\(run.standardError.suffix(2_000))")
        #expect(try await server.terminate())
    }

    /// The check can fail: a call answering other than its line says is reported as such.
    @Test func aCallAnsweringOtherThanItsLineSaysIsCaught() async throws {
        let readme = """
            ```sh
            curl -s localhost:8080/v1/houses/not-a-house -H "authorization: Bearer not-a-token"
            curl -s localhost:8080/v1/houses/not-a-house -H "authorization: Bearer not-a-token" \\
              -H 'accept: application/json'   # 401 unauthenticated
            curl -s localhost:8080/health      # 404, which it is not
            ```

            ```sh
            echo "a block without the server's address is not run"
            ```
            """
        let walkthrough = ReadmeWalkthrough(readme: readme)
        #expect(walkthrough.blocks.count == 1 && walkthrough.curlCalls == 3)
        let directory = TemporaryDataDirectory()
        let server = try await ServerProcess(dataDirectory: directory.path)
        defer { server.kill() }

        let run = try await Self.run(walkthrough, on: server)

        #expect(run.calls.map(\.status) == [401, 401, 200], "\(run.standardError)")
        #expect(run.calls.map(\.expected) == ["2xx", "401", "404"])
        #expect(run.calls.map(\.isAsExpected) == [false, true, false])
        #expect(!run.standardOutput.contains("is not run"))
        #expect(try await server.terminate())
    }

    /// Runs `walkthrough`'s script with bash against `server`, its output in files (a stream's
    /// output cannot fill a pipe and stall it).
    private static func run(
        _ walkthrough: ReadmeWalkthrough, on server: ServerProcess, environment: [String: String] = [:]
    ) async throws -> Run {
        let base = NSTemporaryDirectory() + "readme-walkthrough-" + UUID().uuidString
        let (scriptPath, scratchPath) = (base + ".sh", base + ".png")
        defer { for path in [scriptPath, scratchPath] { try? FileManager.default.removeItem(atPath: path) } }
        let address = server.address.replacingOccurrences(of: "http://", with: "")
        try walkthrough.script(address: address, scratchFile: scratchPath).write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let output = try await ChildProcess.output(
            of: URL(fileURLWithPath: "/bin/bash"), arguments: [scriptPath],
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
        return Run(standardOutput: output.stdout, standardError: output.stderr, calls: ReadmeWalkthrough.calls(reportedIn: output.stderr))
    }
}
