/// What a new password must satisfy, decided on its length alone.
///
/// The API checks a plaintext with `problem(with:)` before hashing, so a bad password costs no
/// bcrypt work; the decider checks the same rule again on the length the command carries, so the
/// rule holds even for a caller that forgot, without the secret ever reaching the domain.
public enum PasswordPolicy {
    /// Characters a password has at least.
    public static let lengthMin = 8
    /// Characters a password has at most: a bound on input, not a security rule. (bcrypt reads
    /// only the first 72 bytes; what to do about longer ones is the hashing caller's concern.)
    public static let lengthMax = 200

    /// What is wrong with a password of `length` characters, or nil when it is acceptable.
    public static func problem(length: Int) -> String? {
        if length < lengthMin { return "must be at least \(lengthMin) characters" }
        if length > lengthMax { return "must be at most \(lengthMax) characters" }
        return nil
    }

    /// What is wrong with `password`, or nil when it is acceptable. For use before hashing.
    public static func problem(with password: String) -> String? {
        problem(length: length(of: password))
    }

    /// The length the policy measures: Unicode scalars, as JSON Schema's `minLength` and
    /// `maxLength` count, so that a password the contract allows is one the server accepts
    /// (counting grapheme clusters, "e" and a combining accent would be one character short).
    public static func length(of password: String) -> Int {
        password.unicodeScalars.count
    }
}
