import Foundation
import EventLog
import PostgresNIO

/// Where a PostgreSQL log lives, from a URL such as `postgres://user:secret@127.0.0.1:5432/logbook`
/// (or `postgresql://`). `?sslmode=require` asks for TLS; without it the connection is plain, as
/// for a database on the same host or a private network. A Unix socket is given as
/// `postgres://user@/logbook?host=/var/run/postgresql`.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var socketPath: String?
    public var user: String
    public var password: String?
    public var database: String
    public var requiresTLS: Bool

    public init(url: String) throws(EventLogError) {
        func refuse(_ reason: String) -> EventLogError { .invalidArgument(field: "eventStore", reason: reason) }
        guard let components = URLComponents(string: url),
              let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme.lowercased())
        else { throw refuse("expected postgres://user[:password]@host[:port]/database") }
        guard let user = components.user, !user.isEmpty else { throw refuse("the URL names no user") }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty else { throw refuse("the URL names no database") }
        let query = components.queryItems ?? []
        self.user = user
        password = components.password
        self.database = database
        host = components.host ?? ""
        port = components.port ?? 5432
        socketPath = query.first { $0.name == "host" }?.value
        guard !host.isEmpty || socketPath != nil else { throw refuse("the URL names no host") }
        switch query.first(where: { $0.name == "sslmode" })?.value ?? "disable" {
        case "disable": requiresTLS = false
        case "require": requiresTLS = true
        case let mode: throw refuse("sslmode \(mode) is not supported (disable or require)")
        }
    }

    /// The URL without its password: what may appear in a log line or an error.
    public var description: String {
        let place = socketPath.map { "[\($0)]" } ?? "\(host):\(port)"
        return "postgres://\(user)@\(place)/\(database)" + (requiresTLS ? "?sslmode=require" : "")
    }

    /// One connection's configuration, for the probe `connect` makes before the pool.
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        if let socketPath {
            return PostgresConnection.Configuration(unixSocketPath: socketPath, username: user, password: password, database: database)
        }
        return PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password, database: database,
            tls: requiresTLS ? .require(try .init(configuration: .makeClientConfiguration())) : .disable
        )
    }

    var clientConfiguration: PostgresClient.Configuration {
        if let socketPath {
            return PostgresClient.Configuration(unixSocketPath: socketPath, username: user, password: password, database: database)
        }
        return PostgresClient.Configuration(
            host: host, port: port, username: user, password: password, database: database,
            tls: requiresTLS ? .require(.makeClientConfiguration()) : .disable
        )
    }
}
