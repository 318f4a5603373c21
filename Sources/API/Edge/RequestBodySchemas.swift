import Foundation

/// The JSON schemas of the contract's JSON request bodies, by operation id: what tells which
/// field of a body that Foundation's decoder refused as "not valid JSON" it choked on.
///
/// Foundation's JSONDecoder reports a number that does not fit an integer (a fraction, or one
/// beyond 64 bits) as invalid JSON at no coding path, so the generated code's error does not say
/// where; the contract does. Read from openapi.yaml once, at the first such failure, and only
/// read after that (hence `@unchecked Sendable`).
final class RequestBodySchemas: @unchecked Sendable {
    static let shared = RequestBodySchemas(document: try? OpenAPIDocument.data())

    /// Operation id → its JSON request body's schema.
    private let bodies: [String: [String: Any]]
    /// `components.schemas`, for `$ref`s.
    private let schemas: [String: [String: Any]]

    init(document: Data?) {
        let root = document.flatMap { try? JSONSerialization.jsonObject(with: $0) } as? [String: Any] ?? [:]
        schemas = ((root["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]]) ?? [:]
        var bodies: [String: [String: Any]] = [:]
        for case let item as [String: Any] in ((root["paths"] as? [String: Any]) ?? [:]).values {
            for case let operation as [String: Any] in item.values {
                guard let id = operation["operationId"] as? String,
                      let content = (operation["requestBody"] as? [String: Any])?["content"] as? [String: Any],
                      let schema = (content["application/json"] as? [String: Any])?["schema"] as? [String: Any] else { continue }
                bodies[id] = schema
            }
        }
        self.bodies = bodies
    }

    /// The fields of `body` (parsed JSON) where operation `operationID`'s schema wants an integer
    /// and the body holds a number that is none, or not one of 64 bits; in the API's path form
    /// (`answers[0].rating`), sorted.
    func integerMisfits(in body: Any, operationID: String) -> [String] {
        guard let schema = bodies[operationID] else { return [] }
        var found: [String] = []
        collect(body, schema, at: "", into: &found)
        return found.sorted()
    }

    private func collect(_ value: Any, _ schema: [String: Any], at path: String, into found: inout [String]) {
        let schema = resolved(schema)
        switch value {
        case let object as [String: Any]:
            let properties = schema["properties"] as? [String: [String: Any]] ?? [:]
            for (name, field) in object {
                guard let property = properties[name] else { continue }
                collect(field, property, at: path.isEmpty ? name : "\(path).\(name)", into: &found)
            }
        case let array as [Any]:
            guard let items = schema["items"] as? [String: Any] else { return }
            for (index, item) in array.enumerated() { collect(item, items, at: "\(path)[\(index)]", into: &found) }
        // A boolean is a number here too, but always one that fits: the decoder names the field
        // of a boolean where an integer belongs itself.
        case let number as NSNumber:
            let types = schema["type"] as? [String] ?? (schema["type"] as? String).map { [$0] } ?? []
            if types.contains("integer"), !types.contains("number"), !Self.fitsInt64(number) { found.append(path) }
        default:
            return
        }
    }

    /// Whether `number` is what `Int` (64 bits) decodes from: `3`, `3.0`, `1e2`; not `1.5`, `1e19`.
    private static func fitsInt64(_ number: NSNumber) -> Bool {
        if Int64(number.description) != nil { return true }
        return Int64(exactly: number.doubleValue) != nil
    }

    /// `schema`, or the schema its `$ref` names.
    private func resolved(_ schema: [String: Any]) -> [String: Any] {
        guard let reference = schema["$ref"] as? String else { return schema }
        return schemas[String(reference.split(separator: "/").last ?? "")] ?? [:]
    }
}
