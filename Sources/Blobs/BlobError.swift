import EventSourcing

/// Every way the blobs decider refuses a command. Codes are stable: clients switch on them.
public enum BlobError: DomainError {
    /// Input out of range; the field errors say which (`blobId`, `bytes`).
    case validationFailed([FieldError])

    /// Stable snake_case code for clients.
    public var code: String {
        switch self {
        case .validationFailed: "validation_failed"
        }
    }

    /// The HTTP-independent kind.
    public var kind: DomainErrorKind {
        switch self {
        case .validationFailed: .validation
        }
    }

    /// A sentence for a person.
    public var detail: String {
        switch self {
        case .validationFailed: "Some fields are invalid."
        }
    }

    /// Per-field problems of a validation failure.
    public var fieldErrors: [FieldError] {
        switch self {
        case .validationFailed(let errors): errors
        }
    }
}
