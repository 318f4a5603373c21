import Crypto
import Foundation
import Testing

@testable import EventSourcing

/// A payload in the shape domains declare: an owner, a name, an optional text and a list of
/// people with their own names.
private struct Note: PersonalData, Equatable {
    struct Person: PersonalData, Equatable {
        var userId: String
        var name: String
        static var personalFields: [PersonalField<Person>] { [.text(\.name, of: \.userId, erased: "Deleted user")] }
    }

    var authorId: String
    var title: String
    var body: String?
    var count: Int
    var people: [Person]

    static var personalFields: [PersonalField<Note>] {
        [.text(\.title, of: \.authorId, erased: ""), .optionalText(\.body, of: \.authorId), .each(\.people)]
    }
}

private func temporaryDirectory() -> String {
    let path = NSTemporaryDirectory() + "personal-data-" + UUID().uuidString
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

private let alice = "0193aaaa-0000-7000-8000-000000000001"
private let bob = "0193bbbb-0000-7000-8000-000000000002"
private let note = Note(
    authorId: alice, title: "MARKER-title-4711", body: "MARKER-body-4711", count: 3,
    people: [.init(userId: alice, name: "Alice Liddell"), .init(userId: bob, name: "Bob Builder")])

@Suite("Personal data: sealing, opening, erasure")
struct PersonalDataTests {
    let directory = temporaryDirectory()
    let secret = SymmetricKey(size: .bits256)

    private func store(secret: SymmetricKey? = nil) throws -> PersonalDataKeyStore {
        try PersonalDataKeyStore(dataDirectory: directory, secret: secret ?? self.secret)
    }

    private func encoded(_ keyring: any PersonalDataKeyring) throws -> Data {
        try EventJSON.encode(note, sealing: keyring)
    }

    private func decoded(_ data: Data, _ keyring: (any PersonalDataKeyring)?) throws -> Note {
        try EventJSON.decode(Note.self, from: data, opening: keyring)
    }

    /// The check that lets a payload skip opening: true wherever the prefix is (first bytes, last
    /// bytes, after look-alikes) or a `\u` escape could spell it, false for text full of the
    /// prefix's letters and for the prefix cut short.
    @Test(arguments: [
        (#""sealed:v1:AAAA""#, true), (#"{"a":"sealed:v1:"}"#, true), (#"sealed:v1:"#, true),
        (#"{"a":"sealed:v","b":"vsealed:v1:x"}"#, true), (#"{"a":"\u0073ealed:v1:x"}"#, true),
        (#"{"a":"vvv sss sealed: v1: sealed:v2: sealedv1:"}"#, false), (#"{"a":"sealed:v1"}"#, false),
        (#"v"#, false), (#""#, false), (#"{"a":"\\u"}"#, false),
    ])
    func aPayloadMayHoldSealedTextWhereTheSealsPrefixOrAnEscapeIs(json: String, may: Bool) {
        #expect(EventJSON.mayHoldSealedText(Data(json.utf8)) == may)
    }

    @Test func roundTripSealsEveryDeclaredFieldAndNothingElse() throws {
        let keys = try store()
        let data = try encoded(keys)
        let text = String(decoding: data, as: UTF8.self)
        // As whole JSON strings, the way a plain value would be written: a short name such as
        // "Bob" also turns up by chance inside base64 ciphertext (it did).
        for secret in ["MARKER-title", "MARKER-body", "Alice", "Bob"] { #expect(!text.contains("\"\(secret)\""), "\(secret)") }
        #expect(text.contains(alice) && text.contains(bob) && text.contains("\"count\":3"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((json["title"] as? String)?.hasPrefix(PersonalDataSeal.prefix) == true)
        #expect(try decoded(data, keys) == note)
        // A new store on the same directory and secret reads the keys from disk.
        #expect(try decoded(data, try store()) == note)
    }

    @Test func withoutAKeyringFieldsAreWrittenPlainAndPlainFieldsReadAsTheyAre() throws {
        let plain = try EventJSON.encode(note)
        #expect(String(decoding: plain, as: UTF8.self).contains("MARKER-title-4711"))
        // Events from before sealing existed: read as they are, with or without a keyring.
        #expect(try decoded(plain, try store()) == note)
        #expect(try decoded(plain, nil) == note)
    }

    @Test func aSealedFieldWithoutAKeyringIsRefused() throws {
        let data = try encoded(try store())
        #expect(throws: PersonalDataError.noKeyring) { try decoded(data, nil) }
    }

    @Test func erasureTurnsOnlyTheSubjectsFieldsIntoPlaceholders() throws {
        let keys = try store()
        let data = try encoded(keys)
        try keys.erase(alice)
        var expected = note
        expected.title = ""
        expected.body = nil
        expected.people[0].name = "Deleted user"
        #expect(try decoded(data, keys) == expected)
        // Durable: a store opened afresh knows, and makes no new key for the erased subject.
        let reopened = try store()
        #expect(try decoded(data, reopened) == expected)
        #expect(try reopened.dataKey(of: alice, create: true) == nil)
        #expect(try reopened.isErased(alice))
        #expect(!FileManager.default.fileExists(atPath: directory + "/keys/\(alice).key"))
        // Written after the erasure for the erased subject: nothing sealed, placeholder on read.
        let later = try encoded(reopened)
        #expect(try decoded(later, reopened) == expected)
    }

    @Test func aTamperedOrMisplacedValueIsRefused() throws {
        let keys = try store()
        var json = try #require(try JSONSerialization.jsonObject(with: try encoded(keys)) as? [String: Any])
        let title = try #require(json["title"] as? String)
        var bytes = try #require(Data(base64Encoded: String(title.dropFirst(PersonalDataSeal.prefix.count))))
        bytes[bytes.count / 2] ^= 0x01
        json["title"] = PersonalDataSeal.prefix + bytes.base64EncodedString()
        let tampered = try JSONSerialization.data(withJSONObject: json)
        #expect(throws: PersonalDataError.tampered(subject: alice)) { try decoded(tampered, keys) }
        // Alice's sealed title copied into a note of Bob's: sealed for someone else.
        _ = try keys.dataKey(of: bob, create: true)
        var moved = try #require(try JSONSerialization.jsonObject(with: try encoded(keys)) as? [String: Any])
        moved["authorId"] = bob
        moved["body"] = nil
        let misplaced = try JSONSerialization.data(withJSONObject: moved)
        #expect(throws: PersonalDataError.tampered(subject: bob)) { try decoded(misplaced, keys) }
    }

    @Test func keyFilesOpenOnlyWithTheServersSecretAndHoldNoPlainKey() throws {
        let keys = try store()
        let key = try #require(try keys.dataKey(of: alice, create: true))
        let file = try #require(FileManager.default.contents(atPath: directory + "/keys/\(alice).key"))
        let raw = key.withUnsafeBytes { Data($0) }
        #expect(file.range(of: raw) == nil)
        let other = try store(secret: SymmetricKey(size: .bits256))
        #expect(throws: PersonalDataError.self) { try other.dataKey(of: alice, create: false) }
    }

    @Test func subjectsThatCouldLeaveTheDirectoryAreRefused() throws {
        let keys = try store()
        for subject in ["../secret", "", "a/b", "x.y", String(repeating: "a", count: 129)] {
            #expect(throws: PersonalDataError.invalidSubject(subject)) { try keys.dataKey(of: subject, create: true) }
        }
    }

    @Test func blindTagsAreStableKeyedAndHideTheValue() throws {
        let keys = try store()
        let tag = keys.blindTag("email", "ann@example.org")
        #expect(tag == (try store()).blindTag("email", "ann@example.org"))
        #expect(tag != keys.blindTag("email", "bob@example.org"))
        #expect(tag != keys.blindTag("username", "ann@example.org"))
        #expect(tag != (try store(secret: SymmetricKey(size: .bits256))).blindTag("email", "ann@example.org"))
        #expect(tag.count == 64 && !tag.contains("ann"))
    }

    @Test func concurrentFirstUsesMakeOneKey() async throws {
        let keys = try store()
        let made = try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<16 {
                group.addTask { try #require(try keys.dataKey(of: alice, create: true)).withUnsafeBytes { Data($0) } }
            }
            return try await group.reduce(into: Set<Data>()) { $0.insert($1) }
        }
        #expect(made.count == 1)
        let fresh = try #require(try store().dataKey(of: alice, create: false))
        #expect(made.first == fresh.withUnsafeBytes { Data($0) })
    }

    /// A query's opened text is kept for the next reader (read models keep personal data sealed,
    /// ADR 0009), and forgotten with its subject's key: after `erase`, the subject's texts read
    /// erased at once, another subject's stay. Plain text and the erased marker are never kept.
    @Test func textsOpenedForReadingAreKeptUntilTheirSubjectIsErased() throws {
        let keys = try store()
        let name = try PersonalDataSeal.seal("Alice Liddell", subject: alice, keyring: keys)
        let note = try PersonalDataSeal.seal("Down the rabbit hole", subject: alice, keyring: keys)
        let other = try PersonalDataSeal.seal("Bob's text", subject: "bob", keyring: keys)
        #expect(try keys.openForReading(name, subject: alice) == "Alice Liddell")
        #expect(try keys.openForReading(name, subject: alice) == "Alice Liddell")
        #expect(try keys.openForReading(note, subject: alice) == "Down the rabbit hole")
        #expect(try keys.openForReading(other, subject: "bob") == "Bob's text")
        #expect(try keys.openForReading("plain", subject: alice) == "plain")
        #expect(try keys.openForReading(PersonalDataSeal.erasedMarker, subject: alice) == nil)
        let keptBytes = [name, "Alice Liddell", note, "Down the rabbit hole", other, "Bob's text"].reduce(0) { $0 + $1.utf8.count }
            + 3 * PersonalDataKeyStore.openedTextOverheadBytes
        #expect(keys.openedTexts.count == 3 && keys.openedTexts.bytes == keptBytes, "each sealed text once; nothing plain")
        #expect(throws: PersonalDataError.self) { try keys.openForReading(name, subject: "bob") }  // alice's text as bob's

        try keys.erase(alice)
        #expect(try keys.openForReading(name, subject: alice) == nil)
        #expect(try keys.openForReading(note, subject: alice) == nil)
        #expect(try keys.openForReading(other, subject: "bob") == "Bob's text")
        #expect(keys.openedTexts.count == 1 && keys.openedTexts.bytes == PersonalDataKeyStore.openedBytes(other, "Bob's text"))
    }

    /// What is kept opened stays within `openedTextsBytesMax`: past it, everything kept is
    /// forgotten and the newest text kept alone; every text still opens.
    @Test func textsKeptOpenedStayWithinTheirBudget() throws {
        let keys = try store()
        let text = String(repeating: "x", count: 1 << 20)  // 1 MiB, about 2.4 MiB kept with its sealed form
        let sealed = try (0..<20).map { _ in try PersonalDataSeal.seal(text, subject: alice, keyring: keys) }
        var peak = 0
        for value in sealed {
            #expect(try keys.openForReading(value, subject: alice) == text)
            peak = max(peak, keys.openedTexts.bytes)
        }
        #expect(peak <= PersonalDataKeyStore.openedTextsBytesMax && peak > PersonalDataKeyStore.openedTextsBytesMax / 2)
        #expect(keys.openedTexts.count < sealed.count, "the budget was reached and the texts kept were forgotten")
    }
}

/// A payload whose array elements do not say whose they are: the payload's `subjectId` does.
private struct Survey: PersonalData, Equatable {
    struct Entry: Codable, Equatable {
        var label: String
        var text: String?
    }

    var subjectId: String
    var entries: [Entry]

    static var personalFields: [PersonalField<Survey>] {
        [.eachOptionalText(\.entries, \.text, of: \.subjectId, erased: "")]
    }
}

@Suite("Personal data: texts inside array elements")
struct PersonalDataArrayElementTests {
    private let survey = Survey(subjectId: alice, entries: [
        .init(label: "label-kept", text: "MARKER-answer-1"), .init(label: "no text", text: nil), .init(label: "b", text: "MARKER-answer-2"),
    ])

    @Test func eachElementsTextIsSealedUnderThePayloadsSubjectAndErasedWithIt() throws {
        let directory = temporaryDirectory()
        let keys = try PersonalDataKeyStore(dataDirectory: directory, secret: SymmetricKey(size: .bits256))
        let data = try EventJSON.encode(survey, sealing: keys)
        let text = String(decoding: data, as: UTF8.self)
        #expect(!text.contains("MARKER-answer") && text.contains("label-kept") && !text.contains("\"text\":null"))
        let read = { try EventJSON.decode(Survey.self, from: data, opening: keys) }
        #expect(try read() == survey)
        try keys.erase(bob)
        #expect(try read() == survey)
        try keys.erase(alice)
        var expected = survey
        expected.entries[0].text = ""
        expected.entries[2].text = ""
        #expect(try read() == expected)
    }
}
