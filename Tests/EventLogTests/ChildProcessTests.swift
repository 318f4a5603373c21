import Foundation
import TestSupport
import Testing

/// `ChildProcess.terminate(killingAfter:)`, which every test stopping a server or `tail` uses.
@Suite("Child process", .timeLimit(.minutes(3)))
struct ChildProcessTests {
    static func sleeper(ignoringSIGTERM: Bool) throws -> ChildProcess {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // An ignored signal stays ignored across `exec`.
        process.arguments = ["-c", (ignoringSIGTERM ? "trap '' TERM; " : "") + "exec sleep 30"]
        try process.run()
        return process
    }

    @Test func aChildThatHeedsSIGTERMEndsOnItsOwn() async throws {
        let process = try Self.sleeper(ignoringSIGTERM: false)
        #expect(await process.terminate(killingAfter: .seconds(20)))
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM)
    }

    @Test func aChildThatIgnoresSIGTERMIsKilledAfterTheBound() async throws {
        let process = try Self.sleeper(ignoringSIGTERM: true)
        try await Task.sleep(for: .milliseconds(200))  // the shell has set its trap
        let started = ContinuousClock.now
        #expect(await process.terminate(killingAfter: .milliseconds(300)) == false)
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        #expect(ContinuousClock.now - started >= .milliseconds(300), "not before the bound")
    }
}
