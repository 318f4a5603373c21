import Crypto
import EventSourcing
import Foundation
import PostgresEventLog

/// The server's personal data key store (ADR 0004), for verbs that fold events into read
/// models: sealed personal fields open only with it. The server's secret key comes from
/// `LOGBOOK_SECRET_KEY` or the data directory's `secret.key`, as for the server; the tool never
/// creates one. The keys are the data directory's, or beside a PostgreSQL log, its table's
/// (ADR 0005).
enum AdminKeyring {
    /// The secret is there but unusable.
    struct Unusable: Error, CustomStringConvertible {
        var description: String
    }

    /// The key store of `dataDirectory`, or nil when there is no secret (a log written without
    /// sealed fields, such as `demo`'s, needs none; a sealed one then fails to project, saying so).
    static func load(
        dataDirectory: String, log: EventLogBackend, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> PersonalDataKeyStore? {
        let text: String
        if let variable = environment["LOGBOOK_SECRET_KEY"], !variable.isEmpty {
            text = variable
        } else {
            let file = (dataDirectory as NSString).appendingPathComponent("secret.key")
            guard FileManager.default.fileExists(atPath: file) else { return nil }
            guard let contents = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw Unusable(description: "cannot read \(file) (it holds the server's secret key)")
            }
            text = contents
        }
        guard let bytes = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), bytes.count == 32 else {
            throw Unusable(description: "the server's secret key must be base64 of exactly 32 bytes")
        }
        let secret = PersonalDataKeyStore.rootKey(serverSecret: SymmetricKey(data: bytes))
        if case .postgres(let store) = log { return PersonalDataKeyStore(storage: PostgresKeyTable(location: store.location), secret: secret) }
        do {
            return try PersonalDataKeyStore(dataDirectory: dataDirectory, secret: secret)
        } catch {
            throw Unusable(description: "\(error)")
        }
    }
}
