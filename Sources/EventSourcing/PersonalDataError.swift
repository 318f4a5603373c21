/// Why personal data could not be sealed or opened.
public enum PersonalDataError: Error, Equatable, CustomStringConvertible {
    /// A sealed field did not open with its subject's key: altered, or sealed for someone else.
    case tampered(subject: String)
    /// A sealed field was read with no keyring.
    case noKeyring
    /// The key store could not be used.
    case keyStore(path: String, reason: String)
    /// A subject id that cannot name a key file.
    case invalidSubject(String)

    public var description: String {
        switch self {
        case let .tampered(subject): "a sealed personal field of \(subject) does not open with its key: altered or misplaced"
        case .noKeyring: "a sealed personal field was read with no keyring"
        case let .keyStore(path, reason): "cannot use the personal data key store at \(path): \(reason)"
        case let .invalidSubject(subject): "\(subject.debugDescription) cannot name a personal data key"
        }
    }
}
