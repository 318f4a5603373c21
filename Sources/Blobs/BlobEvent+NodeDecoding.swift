import EventSourcing

// An upload read straight from the scanned JSON (`NodeDecodable`): one comes with every photo
// and avatar. Key for key what the synthesized `init(from:)` reads; `BlobEventCodingTests`
// checks the two agree.

extension BlobEvent.Uploaded: NodeDecodable {
    public init(nodes object: NodeObject) throws {
        self.init(
            blobId: try object.value("blobId"), contentType: try object.value("contentType"), bytes: try object.value("bytes"),
            uploaderId: try object.value("uploaderId"), uploadedAt: try object.value("uploadedAt"))
    }
}
