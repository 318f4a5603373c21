import EventLog
import Foundation
import OpenAPIRuntime

/// The operator console (`/admin`) and the log's statistics it shows (`/v1/admin/stats`).
extension LogbookAPI {
    func getConsole(_ input: Operations.GetConsole.Input) async throws -> Operations.GetConsole.Output {
        let file = try consoleFile(ConsoleFiles.page)
        return .ok(.init(headers: Self.pageHeaders, body: .html(HTTPBody(file.bytes))))
    }

    func getConsoleFile(_ input: Operations.GetConsoleFile.Input) async throws -> Operations.GetConsoleFile.Output {
        let file = try consoleFile(input.path.file)
        let body = HTTPBody(file.bytes)
        return switch file.kind {
        case .html: .ok(.init(headers: Self.fileHeaders, body: .html(body)))
        case .css: .ok(.init(headers: Self.fileHeaders, body: .textCss(body)))
        case .javascript: .ok(.init(headers: Self.fileHeaders, body: .textJavascript(body)))
        }
    }

    func getAdminStats(_ input: Operations.GetAdminStats.Input) async throws -> Operations.GetAdminStats.Output {
        try requireOperator()
        guard let statistics = try runtime.log.statistics() else {
            // Counts over a shared PostgreSQL log are its own views' job (pg_stat_user_tables).
            throw Problem(status: .notImplemented, code: "not_on_this_log", title: "Not on this log",
                          detail: "the log is in PostgreSQL: its statistics are PostgreSQL's own (pg_stat_user_tables)")
        }
        return .ok(.init(body: .json(.init(
            events: Int64(statistics.eventCount),
            lastPosition: Int64(statistics.lastPosition),
            streams: Int64(statistics.streamCount),
            eventsByType: Self.counts(statistics.eventsByType),
            eventsByCategory: Self.counts(statistics.eventsByCategory),
            fileSizeBytes: Int64(statistics.fileSizeBytes),
            mapSizeBytes: Int64(statistics.environment.mapSizeBytes),
            usedBytes: Int64(statistics.environment.usedBytes),
            pageSizeBytes: statistics.environment.pageSizeBytes,
            readersUsed: Int(statistics.environment.readersUsed),
            readersMax: Int(statistics.environment.readersMax)
        ))))
    }

    /// A console file by name; 404 for any other name, and for all of them on a server without
    /// an operator token (as every operator route).
    private func consoleFile(_ name: String) throws -> ConsoleFiles.File {
        guard runtime.configuration.operatorToken != nil, let file = console.files[name] else {
            throw Problem(status: .notFound, code: "not_found", title: "Not found", detail: "no such route or resource")
        }
        return file
    }

    private static let pageHeaders = Operations.GetConsole.Output.Ok.Headers(
        contentSecurityPolicy: ConsoleFiles.contentSecurityPolicy, xContentTypeOptions: "nosniff", referrerPolicy: "no-referrer",
        cacheControl: ConsoleFiles.cacheControl)
    private static let fileHeaders = Operations.GetConsoleFile.Output.Ok.Headers(
        contentSecurityPolicy: ConsoleFiles.contentSecurityPolicy, xContentTypeOptions: "nosniff", referrerPolicy: "no-referrer",
        cacheControl: ConsoleFiles.cacheControl)

    /// Most first, ties by name, so the order is the same on every read.
    private static func counts(_ byName: [String: Int]) -> [Components.Schemas.NameCount] {
        byName.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { .init(name: $0.key, count: Int64($0.value)) }
    }
}
