import EventSourcing

/// Normalises a command's fields and collects every problem, so one refusal lists them all.
struct FieldValidator {
    /// The problems found so far, in the order the fields were checked.
    private(set) var errors: [FieldError] = []

    /// The normalised e-mail.
    mutating func email(_ raw: String) -> String {
        let email = AccountRules.normaliseEmail(raw)
        record("email", AccountRules.emailProblem(email))
        return email
    }

    /// The username, trimmed (its case kept for display).
    mutating func username(_ raw: String) -> String {
        let username = AccountRules.normaliseName(raw)
        record("username", AccountRules.usernameProblem(username))
        return username
    }

    /// The display name, trimmed.
    mutating func displayName(_ raw: String) -> String {
        let name = AccountRules.normaliseName(raw)
        record("displayName", AccountRules.displayNameProblem(name))
        return name
    }

    /// A first or last name, trimmed; nil when empty.
    mutating func personName(_ field: String, _ raw: String) -> String? {
        let name = AccountRules.normaliseName(raw)
        record(field, AccountRules.personNameProblem(name))
        return name.isEmpty ? nil : name
    }

    /// The normalised postcode; nil when empty.
    mutating func postcode(_ raw: String) -> String? {
        let postcode = AccountRules.normalisePostcode(raw)
        if postcode.isEmpty { return nil }
        record("postcode", AccountRules.postcodeProblem(postcode))
        return postcode
    }

    /// Checks a plaintext password's length under `field`.
    mutating func passwordLength(_ field: String, _ length: Int) {
        record(field, PasswordPolicy.problem(length: length))
    }

    /// Refuses with every problem found, if any.
    func check() throws(AccountError) {
        if !errors.isEmpty { throw .validationFailed(errors) }
    }

    private mutating func record(_ field: String, _ problem: String?) {
        if let problem { errors.append(FieldError(field, problem)) }
    }
}
