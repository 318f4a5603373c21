import Accounts
import EventSourcing
import Testing

@Suite("Account errors")
struct AccountErrorTests {
    @Test func codesAndKindsAreStable() {
        let expected: [(AccountError, String, DomainErrorKind)] = [
            (.validationFailed([FieldError("email", "x")]), "validation_failed", .validation),
            (.emailTaken, "email_taken", .conflict),
            (.usernameTaken, "username_taken", .conflict),
            (.accountNotFound, "account_not_found", .notFound),
            (.accountAlreadyExists, "account_exists", .conflict),
            (.invalidResetToken, "invalid_reset_token", .notFound),
            (.tokenInUse, "token_in_use", .conflict),
        ]
        for (error, code, kind) in expected {
            #expect(error.code == code)
            #expect(error.kind == kind)
            #expect(!error.detail.isEmpty)
        }
        #expect(AccountError.validationFailed([FieldError("email", "x")]).fieldErrors == [FieldError("email", "x")])
        #expect(AccountError.emailTaken.fieldErrors.isEmpty)
    }
}
