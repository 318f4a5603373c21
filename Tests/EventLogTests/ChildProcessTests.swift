import Foundation
import Synchronization
import TestSupport
import Testing

/// `ChildProcess.terminate(killingAfter:)`, which every test stopping a server or `tail` uses,
/// `collectOutput`, which every test reading a child's output as it arrives uses, and
/// `output(of:)`, which every test running a tool to its end uses.
@Suite("Child process", .timeLimit(.minutes(3)))
struct ChildProcessTests {
    static func sleeper(ignoringSIGTERM: Bool) async throws -> ChildProcess {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // An ignored signal stays ignored across `exec`.
        process.arguments = ["-c", (ignoringSIGTERM ? "trap '' TERM; " : "") + "exec sleep 30"]
        try await process.run()
        return process
    }

    @Test func aChildThatHeedsSIGTERMEndsOnItsOwn() async throws {
        let process = try await Self.sleeper(ignoringSIGTERM: false)
        #expect(await process.terminate(killingAfter: .seconds(20)))
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM)
    }

    @Test func aChildThatIgnoresSIGTERMIsKilledAfterTheBound() async throws {
        let process = try await Self.sleeper(ignoringSIGTERM: true)
        try await Task.sleep(for: .milliseconds(200))  // the shell has set its trap
        let started = ContinuousClock.now
        #expect(await process.terminate(killingAfter: .milliseconds(300)) == false)
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        #expect(ContinuousClock.now - started >= .milliseconds(300), "not before the bound")
    }

    /// Four times a pipe's buffer, on both streams, every byte in order; the end is seen once
    /// the child has exited, and the sink gets nothing after it.
    @Test func collectedOutputHoldsEveryByteOfBothStreamsUntilItsEnd() async throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "i=0; while [ $i -lt 4096 ]; do printf '%063d\\n' $i; printf 'e%062d\\n' $i >&2; i=$((i+1)); done"]
        let collected = Mutex(Data())
        process.collectOutput(standardError: true) { chunk in collected.withLock { $0.append(chunk) } }
        try await process.runToExit()
        await process.outputEnded()
        let text = String(decoding: collected.withLock { $0 }, as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(text.utf8.count == 2 * 4096 * 64)
        #expect(lines.filter { !$0.hasPrefix("e") }.compactMap { Int($0) } == Array(0..<4096))
        #expect(lines.filter { $0.hasPrefix("e") }.compactMap { Int($0.dropFirst()) } == Array(0..<4096))
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }

    /// Killed in the middle of its output, a child's collected output still ends.
    @Test func collectedOutputEndsWhenTheChildIsKilled() async throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "echo ready; exec sleep 30"]
        let collected = Mutex(Data())
        process.collectOutput { chunk in collected.withLock { $0.append(chunk) } }
        try await process.run()
        while collected.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(5)) }  // the suite's limit bounds it
        #expect(process.kill())
        await process.outputEnded()
        #expect(String(decoding: collected.withLock { $0 }, as: UTF8.self) == "ready\n")
    }

    @Test func aRunToItsEndGivesBothStreamsAndItsStatus() async throws {
        let output = try await ChildProcess.output(
            of: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "echo out; echo err >&2; exit 3"], environment: nil)
        #expect(output.status == 3 && output.stdout == "out\n" && output.stderr == "err\n")
    }

    @Test func aRunThatHangsIsKilledAfterItsBound() async throws {
        let started = ContinuousClock.now
        let output = try await ChildProcess.output(
            of: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "echo started; exec sleep 30"], environment: nil,
            killingAfter: .milliseconds(300))
        #expect(output.status == SIGKILL && output.stdout == "started\n")
        #expect(ContinuousClock.now - started < .seconds(10), "killed at its bound, not after the 30 s sleep")
    }
}

extension ChildProcessTests {
    /// What Subprocess is asked for: a group of its own, no descriptor of the tests' beyond the
    /// three standard ones, and the given environment only.
    @Test func aChildHasItsOwnGroupTheStandardDescriptorsOnlyAndTheGivenEnvironment() async throws {
        let held = open("/proc/self/stat", O_RDONLY)  // without close-on-exec: the child must not inherit it
        defer { close(held) }
        let output = try await ChildProcess.output(
            of: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", #"echo "group $$ $(cut -d' ' -f5 /proc/$$/stat)"; echo fds; ls /proc/$$/fd; echo env; env"#],
            environment: ["PATH": "/usr/bin:/bin", "ONLY": "this"])
        let lines = output.stdout.split(separator: "\n").map(String.init)
        let group = try #require(lines.first { $0.hasPrefix("group ") }).split(separator: " ")
        #expect(group.count == 3 && group[1] == group[2], "its own process group: \(group)")
        let start = try #require(lines.firstIndex(of: "fds"))
        #expect(Array(lines[(start + 1)...].prefix { $0 != "env" }) == ["0", "1", "2"], "\(lines)")
        #expect(lines.contains("ONLY=this") && !lines.contains { $0.hasPrefix("HOME=") }, "\(lines)")
    }

    @Test func aChildThatCannotStartThrowsAndHasNoExitToWaitFor() async throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/nonexistent/child")
        await #expect(throws: ChildProcess.SpawnFailed.self) { try await process.run() }
        await process.exited()
        #expect(!process.isRunning)
    }
}
