import EventLog
import Foundation
import OpenAPIRuntime

/// The generated `APIProtocol`, implemented: one method per operation of openapi.yaml.
struct LogbookAPI: APIProtocol {
    let runtime: LogbookRuntime
    /// openapi.yaml, decoded once, served at /openapi.json.
    let document: OpenAPIObjectContainer
    /// The operator console's files, served at /admin.
    let console: ConsoleFiles

    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        .ok(.init(body: .json(.init(
            status: .ok,
            logPosition: Int64(try await runtime.log.headPosition()),
            projectedPosition: Int64(runtime.projections.projected.position)
        ))))
    }

    func getOpenAPIDocument(_ input: Operations.GetOpenAPIDocument.Input) async throws -> Operations.GetOpenAPIDocument.Output {
        .ok(.init(body: .json(document)))
    }
}
