import Accounts
import Testing

@Suite("Account rules")
struct AccountRulesTests {
    @Test func normalisers() {
        #expect(AccountRules.normaliseEmail("  Ann.Bee@Example.ORG\n") == "ann.bee@example.org")
        #expect(AccountRules.normaliseUsername(" AnnB ") == "annb")
        #expect(AccountRules.normalisePostcode(" 1234\tab ") == "1234AB")
        #expect(AccountRules.normalisePostcode("sw1a 1aa") == "SW1A1AA")
    }

    @Test(arguments: ["a@b.co", "first.last+tag@sub.example.org", "ü@münchen.de"])
    func acceptableEmails(_ email: String) {
        #expect(AccountRules.emailProblem(email) == nil)
    }

    @Test(arguments: ["", "plain", "@example.org", "a@", "a@b", "a@@b.org", "a@b@c.org", "a@.org", "a@b..org", "a@b.org.", "a b@c.org"])
    func unacceptableEmails(_ email: String) {
        #expect(AccountRules.emailProblem(email) != nil)
    }

    @Test func emailFitsItsTag() {
        let longest = String(repeating: "a", count: AccountRules.emailBytesMax - "@b.org".count) + "@b.org"
        #expect(AccountRules.emailProblem(longest) == nil)
        #expect(AccountRules.emailProblem("a" + longest) != nil)
        #expect(("email:" + longest).utf8.count == 200)
    }

    @Test func usernames() {
        #expect(AccountRules.usernameProblem("ab") != nil)
        #expect(AccountRules.usernameProblem("abc") == nil)
        #expect(AccountRules.usernameProblem("Ann.B_e-3") == nil)
        #expect(AccountRules.usernameProblem(String(repeating: "x", count: 30)) == nil)
        #expect(AccountRules.usernameProblem(String(repeating: "x", count: 31)) != nil)
        #expect(AccountRules.usernameProblem("ann b") != nil)
        #expect(AccountRules.usernameProblem("аnn") != nil, "Cyrillic а looks like Latin a")
    }

    @Test func postcodes() {
        #expect(AccountRules.postcodeProblem("1") != nil)
        #expect(AccountRules.postcodeProblem("12") == nil)
        #expect(AccountRules.postcodeProblem("ABCDE12345") == nil)
        #expect(AccountRules.postcodeProblem("ABCDE123456") != nil)
        #expect(AccountRules.postcodeProblem("12-34") != nil)
    }

    @Test func names() {
        #expect(AccountRules.displayNameProblem("") != nil)
        #expect(AccountRules.displayNameProblem(String(repeating: "x", count: 100)) == nil)
        #expect(AccountRules.displayNameProblem(String(repeating: "x", count: 101)) != nil)
        #expect(AccountRules.displayNameProblem("evil\u{202E}txt") != nil, "bidi override")
        #expect(AccountRules.displayNameProblem("👨‍👩‍👧 family") == nil, "zero-width joiners in emoji")
        #expect(AccountRules.personNameProblem("") == nil)
        #expect(AccountRules.personNameProblem("a\tb") != nil)
    }

    @Test func passwordPolicyBeforeHashing() {
        #expect(PasswordPolicy.lengthMin == 8)
        #expect(PasswordPolicy.problem(with: "1234567") == "must be at least 8 characters")
        #expect(PasswordPolicy.problem(with: "12345678") == nil)
        #expect(PasswordPolicy.problem(with: "ééééééé") != nil, "characters, not bytes")
        #expect(PasswordPolicy.problem(length: 201) == "must be at most 200 characters")
    }
}
