import EventLog
import Foundation
import Testing
@testable import API

/// `logbook-admin quiz import FILE.json`: a checked file goes into the bank once; the tool
/// refuses to write while a server holds the log.
@Suite("Quiz: logbook-admin quiz import", .timeLimit(.minutes(3)))
struct QuizImportCLITests {
    private func file(_ json: String) throws -> String {
        let path = NSTemporaryDirectory() + "bank-" + UUID().uuidString + ".json"
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func questionsAdded(in directory: String) throws -> [RecordedEvent] {
        var options = EventStoreOptions()
        options.readOnly = true
        let store = try LMDBEventStore(dataDirectory: directory, options: options)
        defer { store.close() }
        return try store.readType("quiz.questionAdded", from: 1, direction: .forward, limit: 1_000)
    }

    @Test func aFileIsImportedOnceAndABadFileNotAtAll() async throws {
        let server = try TestServer()
        defer { server.remove() }
        _ = try await prepareFirstStart(runtime: server.runtime, demo: false)
        let good = try file(#"""
            [{"text": "What colour is a ripe banana?", "answers": ["Yellow", "Blue"], "correctAnswer": "Yellow", "category": "food"},
             {"text": "What is the capital of Australia?", "answers": ["Canberra", "Sydney"], "correctAnswer": "Canberra"},
             {"text": "How many days has a leap year?", "answers": ["365", "366"], "correctAnswer": "366"}]
            """#)
        let bad = try file(#"[{"text": "Fine?", "answers": ["a", "b"], "correctAnswer": "a"}, {"text": "", "answers": ["x"], "correctAnswer": "y"}]"#)
        defer { for path in [good, bad] { try? FileManager.default.removeItem(atPath: path) } }

        let busy = try await AdminTool.run(["quiz", "import", good, "--data-dir", server.directory])
        #expect(busy.status == 2 && busy.output.contains("only one writer"), "the running server holds the log: \(busy.output)")
        server.runtime.close()
        let before = try questionsAdded(in: server.directory).count

        let first = try await AdminTool.run(["quiz", "import", good, "--data-dir", server.directory])
        #expect(first.status == 0 && first.output.contains("imported 2 questions") && first.output.contains("skipped 1"), "\(first.output)")
        let again = try await AdminTool.run(["quiz", "import", good, "--data-dir", server.directory])
        #expect(again.status == 0 && again.output.contains("imported 0 questions") && again.output.contains("skipped 3"), "\(again.output)")
        let refused = try await AdminTool.run(["quiz", "import", bad, "--data-dir", server.directory])
        #expect(refused.status == 1 && refused.output.contains("question 1: text"), "\(refused.output)")

        let added = try questionsAdded(in: server.directory)
        #expect(added.count == before + 2)
        #expect(added.suffix(2).allSatisfy { $0.actor == "operator" })
        #expect(added.prefix(before).allSatisfy { $0.actor == "system" }, "the starter bank is the system's")
    }
}
