import Accounts
import ArgumentParser
import Crypto
import EventLog
import Foundation
import Projections

/// `outbox`: the mails waiting for the operator's mailer (password-reset and e-mail
/// verification links), with their tokens unsealed, so a mailer script can build the links.
struct OutboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox",
        abstract: "List pending mails (password resets, e-mail verifications), newest first, with their tokens unsealed.",
        discussion: """
            A mail is pending while its token can still be redeemed: not expired, not used, and no \
            password change (for a reset) or e-mail change (for a verification) since. KIND says which \
            link to build: passwordReset for POST /v1/password-resets/{token}, emailVerification for \
            POST /v1/email-verifications/{token}. The tokens are secrets: pipe the output to the mailer, not to a log. \
            The key is the server's: $\(OutboxKey.environmentVariable), else <data-dir>/\(OutboxKey.fileName).
            """
    )

    @OptionGroup var dataDirectory: DataDirectoryOption

    @Option(help: "Mails at most.")
    var limit = 100

    @Flag(help: "Also list mails whose token has expired.")
    var expired = false

    @Flag(help: "One JSON object per line (kind, to, token, requestedAt, expiresAt, userId, position) instead of a table.")
    var json = false

    func validate() throws {
        guard (1...100_000).contains(limit) else { throw ValidationError("--limit must be 1…100000") }
    }

    func run() throws {
        let path = try dataDirectory.resolvedPath()
        guard let key = OutboxKey.load(dataDirectory: path) else {
            printToStandardError("logbook-admin: no usable secret key in $\(OutboxKey.environmentVariable) or \(path)/\(OutboxKey.fileName)")
            throw ExitCode(AdminError.usageStatus)
        }
        let engine = try ProjectionEngine(log: try dataDirectory.openStore(), dataDirectory: path, projections: AccountProjections.all)
        let mails = try AccountQueries(engine: engine).outboxMails(limit: limit, now: expired ? nil : Date())
        let rows = mails.map { mail in (mail, OutboxKey.unseal(mail.sealedToken, with: key) ?? "(sealed with another key)") }
        if json {
            for (mail, token) in rows {
                print(JSONText.object([
                    ("kind", JSONText.quoted(mail.kind.rawValue)), ("to", JSONText.quoted(mail.to)), ("token", JSONText.quoted(token)),
                    ("requestedAt", JSONText.quoted(mail.requestedAt.formatted(.iso8601))),
                    ("expiresAt", JSONText.quoted(mail.expiresAt.formatted(.iso8601))),
                    ("userId", JSONText.quoted(mail.userId)), ("position", String(mail.position)),
                ]))
            }
        } else {
            let header = ["REQUESTED", "EXPIRES", "KIND", "TO", "TOKEN"]
            let lines = rows.map { mail, token in
                [mail.requestedAt.formatted(.iso8601), mail.expiresAt.formatted(.iso8601), mail.kind.rawValue, mail.to, token]
            }
            for line in TextColumns.render([header] + lines) { print(line) }
        }
    }
}

/// The server's reset-token sealing key, found and derived exactly as the server's `AuthSecrets`
/// does it (same variable, same file, same HKDF info): the two must change together.
enum OutboxKey {
    static let environmentVariable = "LOGBOOK_SECRET_KEY"
    static let fileName = "secret.key"

    /// The sealing key; nil when there is no key or it is not base64 of 32 bytes.
    static func load(dataDirectory: String) -> SymmetricKey? {
        let text = ProcessInfo.processInfo.environment[environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
            ?? (try? String(contentsOfFile: (dataDirectory as NSString).appendingPathComponent(fileName), encoding: .utf8))
        guard let text, let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), data.count == 32 else {
            return nil
        }
        return HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: data), info: Data("logbook reset-token sealing v1".utf8), outputByteCount: 32)
    }

    /// The token `sealed` holds; nil when it was sealed with another key.
    static func unseal(_ sealed: SealedToken, with key: SymmetricKey) -> String? {
        guard let data = Data(base64Encoded: sealed.base64), let box = try? ChaChaPoly.SealedBox(combined: data),
              let token = try? ChaChaPoly.open(box, using: key) else { return nil }
        return String(data: token, encoding: .utf8)
    }
}
