extension FieldChecks {
    /// Records a problem when `blobId` is not a blob id's shape (`SHA256Hex.isDigest`). Only the
    /// shape: whether the actor uploaded it and the file is stored is I/O, checked by the caller
    /// before the command is issued.
    public mutating func blobId(_ blobId: String, field: String = "blobId") {
        if !SHA256Hex.isDigest(blobId) { fail(field, Self.blobIdProblem) }
    }

    /// The message of a malformed blob id, the same in every domain.
    public static let blobIdProblem = "must be 64 lowercase hexadecimal digits"
}
