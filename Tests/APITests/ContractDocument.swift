import Foundation
import Testing
@testable import API

/// openapi.yaml as JSON objects, for the tests that pin the contract's rules to the deciders'.
struct ContractDocument {
    let schemas: [String: [String: Any]]
    let paths: [String: [String: Any]]
    /// `components` by kind (`responses`, `headers`, `parameters`, …).
    let components: [String: [String: Any]]

    init() throws {
        let document = try #require(try JSONSerialization.jsonObject(with: OpenAPIDocument.data()) as? [String: Any])
        components = try #require(document["components"] as? [String: [String: Any]])
        schemas = try #require(components["schemas"] as? [String: [String: Any]])
        paths = try #require(document["paths"] as? [String: [String: Any]])
    }

    /// The property `name` of schema `schema`.
    func property(_ schema: String, _ name: String) throws -> [String: Any] {
        let properties = try #require(schemas[schema]?["properties"] as? [String: Any], "schema \(schema)")
        return try #require(properties[name] as? [String: Any], "\(schema).\(name)")
    }

    /// A string property's `minLength` (0 when absent)...`maxLength` (required).
    func lengths(_ schema: String, _ name: String) throws -> ClosedRange<Int> {
        let field = try property(schema, name)
        return (field["minLength"] as? Int ?? 0)...(try #require(field["maxLength"] as? Int, "\(schema).\(name) maxLength"))
    }

    /// A string property's `pattern`.
    func pattern(_ schema: String, _ name: String) throws -> String {
        try #require(try property(schema, name)["pattern"] as? String, "\(schema).\(name) pattern")
    }
}
