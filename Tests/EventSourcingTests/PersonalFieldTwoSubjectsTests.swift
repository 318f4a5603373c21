import Crypto
import Foundation
import Testing

@testable import EventSourcing

/// What one user writes about another, in the shape of a review: sealed under both users' keys.
private struct Assessment: PersonalData, Equatable {
    struct Answer: Codable, Equatable {
        var text: String?
    }

    var writerId: String
    var subjectId: String
    var answers: [Answer]
    var remark: String?

    static var personalFields: [PersonalField<Assessment>] {
        [.eachOptionalText(\.answers, \.text, of: \.writerId, about: \.subjectId, erased: ""),
         .optionalText(\.remark, of: \.writerId, about: \.subjectId, erased: "")]
    }
}

private let writer = "0193aaaa-0000-7000-8000-00000000000a"
private let subject = "0193bbbb-0000-7000-8000-00000000000b"
private let assessment = Assessment(
    writerId: writer, subjectId: subject, answers: [.init(text: "MARKER-answer-2718"), .init(text: nil)], remark: "MARKER-remark-2718")

/// ADR 0010: a text one user wrote about another reads erased once either is erased, and one
/// sealed only under the subject's key (before texts were sealed twice) still opens.
@Suite("Personal data: texts of two users")
struct PersonalFieldTwoSubjectsTests {
    private func store() throws -> PersonalDataKeyStore {
        let directory = NSTemporaryDirectory() + "two-subjects-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return try PersonalDataKeyStore(dataDirectory: directory, secret: SymmetricKey(size: .bits256))
    }

    private func decoded(_ data: Data, _ keyring: any PersonalDataKeyring) throws -> Assessment {
        try EventJSON.decode(Assessment.self, from: data, opening: keyring)
    }

    @Test(arguments: [writer, subject])
    func aTextWrittenAboutSomeoneReadsErasedOnceEitherIsErased(erased: String) throws {
        let keys = try store()
        let data = try EventJSON.encode(assessment, sealing: keys)
        #expect(!String(decoding: data, as: UTF8.self).contains("MARKER"))
        #expect(try decoded(data, keys) == assessment)
        try keys.erase(erased)
        #expect(try decoded(data, keys) == Assessment(writerId: writer, subjectId: subject, answers: [.init(text: ""), .init(text: nil)], remark: ""))
    }

    @Test func aTextSealedOnlyUnderTheSubjectsKeyOpensUntilEitherIsErased() throws {
        let keys = try store()
        // A reviewer always has a key: the same event seals her name under it.
        _ = try keys.dataKey(of: writer, create: true)
        let once = try PersonalDataSeal.seal("MARKER-older-2718", subject: subject, keyring: keys)
        #expect(try PersonalDataSeal.open(once, by: writer, about: subject, keyring: keys) == "MARKER-older-2718")
        #expect(try PersonalDataSeal.open("plain, before sealing", by: writer, about: subject, keyring: keys) == "plain, before sealing")
        let elsewhere = try PersonalDataSeal.seal("MARKER-other-2718", subject: "0193cccc-0000-7000-8000-00000000000c", keyring: keys)
        #expect(throws: PersonalDataError.self) { try PersonalDataSeal.open(elsewhere, by: writer, about: subject, keyring: keys) }
        try keys.erase(writer)
        #expect(try PersonalDataSeal.open(once, by: writer, about: subject, keyring: keys) == nil)
    }
}
