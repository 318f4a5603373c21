import EventSourcing
import Foundation

extension AccountEvent {
    /// The payload as `EventJSON`.
    public func encodeData() throws -> Data {
        switch self {
        case .registered(let payload): try EventJSON.encode(payload)
        case .profileUpdated(let payload): try EventJSON.encode(payload)
        case .emailChanged(let payload): try EventJSON.encode(payload)
        case .usernameChanged(let payload): try EventJSON.encode(payload)
        case .passwordChanged(let payload): try EventJSON.encode(payload)
        case .sessionStarted(let payload): try EventJSON.encode(payload)
        case .sessionEnded(let payload): try EventJSON.encode(payload)
        case .passwordResetRequested(let payload): try EventJSON.encode(payload)
        case .passwordResetRedeemed(let payload): try EventJSON.encode(payload)
        case .avatarChanged(let payload): try EventJSON.encode(payload)
        case .erased(let payload): try EventJSON.encode(payload)
        }
    }

    /// The account event stored as `typeName` with `data`, or nil for another domain's type.
    /// Every account event is at schema version 1. Personal fields written before they were
    /// sealed are plain strings and are read as they are (`PersonalData`).
    public static func decode(typeName: String, schemaVersion: UInt16, data: Data) throws -> AccountEvent? {
        switch typeName {
        case "account.registered": .registered(try EventJSON.decode(Registered.self, from: data))
        case "account.profileUpdated": .profileUpdated(try EventJSON.decode(ProfileUpdated.self, from: data))
        case "account.emailChanged": .emailChanged(try EventJSON.decode(EmailChanged.self, from: data))
        case "account.usernameChanged": .usernameChanged(try EventJSON.decode(UsernameChanged.self, from: data))
        case "account.passwordChanged": .passwordChanged(try EventJSON.decode(PasswordChanged.self, from: data))
        case "account.sessionStarted": .sessionStarted(try EventJSON.decode(SessionStarted.self, from: data))
        case "account.sessionEnded": .sessionEnded(try EventJSON.decode(SessionEnded.self, from: data))
        case "account.passwordResetRequested":
            .passwordResetRequested(try EventJSON.decode(PasswordResetRequested.self, from: data))
        case "account.passwordResetRedeemed":
            .passwordResetRedeemed(try EventJSON.decode(PasswordResetRedeemed.self, from: data))
        case "account.avatarChanged": .avatarChanged(try EventJSON.decode(AvatarChanged.self, from: data))
        case "account.erased": .erased(try EventJSON.decode(Erased.self, from: data))
        default: nil
        }
    }
}
