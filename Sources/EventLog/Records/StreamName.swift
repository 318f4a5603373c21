/// Stream ids are `category-id`: the category is everything before the first `-`.
public enum StreamName {
    /// The category of `streamID` (`house` for `house-0193…`).
    public static func category(of streamID: String) -> String {
        if let dash = streamID.utf8.firstIndex(of: UInt8(ascii: "-")) {
            return String(streamID[..<dash])
        }
        return streamID
    }

    /// Why `streamID` is not a valid stream id, or nil when it is.
    static func problem(with streamID: String) -> String? {
        let utf8 = streamID.utf8
        guard let dash = utf8.firstIndex(of: UInt8(ascii: "-")) else {
            return "must be named category-id"
        }
        if dash == utf8.startIndex { return "category is empty" }
        if utf8.index(after: dash) == utf8.endIndex { return "id after the category is empty" }
        if utf8.contains(0) { return "must not contain NUL" }
        return nil
    }
}
