import EventSourcing
import Testing

/// The one text policy every app's names, titles and free texts go through.
@Suite("Text policy")
struct TextKindTests {
    /// Controls and invisible format characters no text may hold, whatever its kind.
    static let refusedEverywhere: [Unicode.Scalar] = [
        "\u{0}", "\u{7}", "\u{8}", "\u{B}", "\u{C}", "\u{1B}", "\u{7F}", "\u{85}", "\u{9B}",
        "\u{200E}", "\u{200F}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}",
        "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}", "\u{061C}", "\u{FEFF}", "\u{2028}", "\u{2029}", "\r",
    ]

    @Test(arguments: refusedEverywhere)
    func controlsAndBidiOverridesAreRefusedInNamesAndFreeText(scalar: Unicode.Scalar) {
        let text = "Kitchen\(Character(scalar))sink"
        #expect(!TextKind.singleLine.allows(scalar) && !TextKind.multiLine.allows(scalar))
        #expect(TextKind.singleLine.problem(with: text) == "must not contain control characters or line breaks")
        #expect(TextKind.multiLine.problem(with: text) == "must not contain control characters other than line breaks and tabs")
    }

    @Test func lineBreaksAndTabsAreFreeTextOnly() {
        for text in ["two\nlines", "a\tb"] {
            #expect(TextKind.singleLine.problem(with: text) != nil, "\(text.debugDescription) in a name")
            #expect(TextKind.multiLine.problem(with: text) == nil, "\(text.debugDescription) in free text")
        }
    }

    @Test func windowsLineEndsBecomeNewlinesInFreeTextOnly() {
        #expect(TextKind.multiLine.normalised("one\r\ntwo\r\n\r\nthree") == "one\ntwo\n\nthree")
        #expect(TextKind.multiLine.problem(with: TextKind.multiLine.normalised("one\r\ntwo")) == nil)
        #expect(TextKind.multiLine.normalised("lone\rreturn") == "lone\rreturn", "a lone CR is kept, and refused")
        #expect(TextKind.singleLine.normalised("one\r\ntwo") == "one\r\ntwo")
    }

    @Test(arguments: ["Kitchen", "Café Noir", "Küche", "台所", "مطبخ", "👨‍👩‍👧 family", "ஸ்ரீ", "नमस्‍ते", "🇳🇱 ✓ ½ — “quoted”"])
    func everydayTextOfAnyScriptIsAccepted(text: String) {
        #expect(TextKind.singleLine.problem(with: text) == nil)
        #expect(TextKind.multiLine.problem(with: text) == nil)
    }

    @Test func fieldChecksApplyThePolicyAfterTrimmingAndLength() {
        var checks = FieldChecks()
        #expect(checks.text("  Hall\u{0}  ", in: 1...100, field: "name") == "Hall\u{0}")
        _ = checks.text("fine", in: 1...100, field: "other")
        _ = checks.text("x\u{202E}y", in: 1...100, field: "title", kind: .multiLine)
        _ = checks.text(" line\r\nbreak ", in: 1...100, field: "description", kind: .multiLine)
        _ = checks.text(String(repeating: "\u{1B}", count: 101), in: 1...100, field: "long")
        #expect(checks.errors == [
            FieldError("name", "must not contain control characters or line breaks"),
            FieldError("title", "must not contain control characters other than line breaks and tabs"),
            FieldError("long", "must be 1 to 100 characters"),
        ])
        #expect(checks.text(" line\r\nbreak ", in: 1...100, field: "description", kind: .multiLine) == "line\nbreak")
    }

    @Test func namesAreSingleLineUnlessSaidOtherwise() {
        var checks = FieldChecks()
        _ = checks.text("two\nlines", in: 1...100, field: "name")
        #expect(checks.errors.map(\.field) == ["name"])
    }
}
