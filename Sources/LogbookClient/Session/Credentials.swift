import Foundation

/// What a sign-in gives: whose session it is and its bearer token, until when.
public struct Credentials: Sendable, Equatable, Codable {
    public var userId: String
    public var token: String
    public var expiresAt: Date

    public init(userId: String, token: String, expiresAt: Date) {
        self.userId = userId
        self.token = token
        self.expiresAt = expiresAt
    }
}

/// Where the session's token lives between launches: the Keychain on Apple platforms, a file
/// only its owner may read, or memory (a process that signs in each time).
public protocol CredentialStore: Sendable {
    func load() throws -> Credentials?
    func save(_ credentials: Credentials) throws
    func clear() throws
}

/// Credentials for the life of the process.
public final class MemoryCredentialStore: CredentialStore {
    private let value: Locked<Credentials?>

    public init(_ credentials: Credentials? = nil) { value = Locked(credentials) }

    public func load() -> Credentials? { value.withLock { $0 } }
    public func save(_ credentials: Credentials) { value.withLock { $0 = credentials } }
    public func clear() { value.withLock { $0 = nil } }
}
