import Foundation
import TestSupport
import Testing

/// The operator console in a real browser (issue 15): `tools/console-test/drive.py` drives
/// headless Chromium against the real server over the DevTools protocol and asserts what each
/// view shows: sign-in (a wrong token refused), the live tail, event search with filters and
/// paging, a stream both ways, audit by actor and entity, projections with a rebuild, the log's
/// stats, sign-out; labels, keyboard focus and a 360 px width on the way. It saves a screenshot
/// of each view in `.build/console-screenshots/` for review.
@Suite("Operator console in Chromium (server process)", .timeLimit(.minutes(4)))
struct ConsoleBrowserTests {
    static let steps = [
        "data set up", "sign-in page", "a wrong token is refused with its code", "signed in with the operator token",
        "the live tail shows events as they are appended", "event search filters, pages and shows problems",
        "a stream's history both ways", "audit by actor and by entity", "projection status and rebuild", "log stats",
        "signing out forgets the token",
    ]
    static let screenshots = ["1-sign-in", "2-live-tail", "3-events", "4-stream", "5-audit", "6-projections", "7-stats"]

    @Test func theConsoleFlowsInChromium() async throws {
        let token = "operator-" + UUID().uuidString
        let directory = TemporaryDataDirectory()
        let server = try await ServerProcess(dataDirectory: directory.path, environment: ["LOGBOOK_OPERATOR_TOKEN": token])
        defer { server.kill() }
        let shots = PackageFiles.root.appendingPathComponent(".build/console-screenshots").path
        for name in Self.screenshots { try? FileManager.default.removeItem(atPath: "\(shots)/\(name).png") }

        // Every wait of the driver is bounded; the kill ends a hang none of them names.
        let run = try await ChildProcess.output(
            of: URL(fileURLWithPath: "/usr/bin/env"),
            arguments: ["python3", PackageFiles.root.appendingPathComponent("tools/console-test/drive.py").path, server.address, token, shots],
            environment: nil, killingAfter: .seconds(180))
        let printed = run.output

        #expect(run.status == 0, "\(printed)")
        for step in Self.steps { #expect(printed.contains("ok: \(step)\n"), "step \(step): \(printed)") }
        for name in Self.screenshots {
            let png = FileManager.default.contents(atPath: "\(shots)/\(name).png") ?? Data()
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 1_000, "screenshot \(name)")
        }
    }
}
