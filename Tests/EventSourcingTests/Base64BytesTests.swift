import Crypto
import Foundation
import Testing

@testable import EventSourcing

/// `Base64Bytes` reads what `Data.base64EncodedString()` writes (every sealed field) and nothing
/// else: a value it refuses is refused as tampered.
@Suite struct Base64BytesTests {
    private func decoded(_ text: String) -> [UInt8]? {
        Base64Bytes.decode(Substring(text).utf8)
    }

    @Test func everyLengthFoundationWritesReadsBackToTheSameBytes() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = Data(bytes).base64EncodedString()
            #expect(decoded(text) == bytes, "length \(length)")
            // As a sealed field hands it over: the part after the prefix.
            let sealed = PersonalDataSeal.prefix + text
            #expect(Base64Bytes.decode(sealed.utf8.dropFirst(PersonalDataSeal.prefix.count)) == bytes)
        }
        // Every byte value, so every sextet of the alphabet is read.
        let all = (0...255).map(UInt8.init)
        #expect(decoded(Data(all).base64EncodedString()) == all)
    }

    @Test(arguments: [
        "QQ=",  // not a multiple of four
        "QQ",  // unpadded
        "Q===",  // three pads
        "QQ==QQ==",  // padding before the end
        "Q Q=",  // whitespace
        "QQ\n=",  // a line break
        "QR==",  // bits set that the padding leaves unused
        "QUI=QUI=",  // padding inside
        "QUJ=",  // the same with one pad
        "QU-D",  // the URL alphabet
        "QU_D",
        "QUJ\u{e9}",  // not ASCII
    ])
    func anythingButStrictPaddedBase64IsRefused(text: String) {
        #expect(decoded(text) == nil)
    }

    @Test func aRefusedEncodingIsATamperedField() throws {
        let directory = NSTemporaryDirectory() + "base64-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keys = try PersonalDataKeyStore(dataDirectory: directory, secret: .init(size: .bits256))
        let sealed = try PersonalDataSeal.seal("Ann", subject: "u1", keyring: keys)
        #expect(try PersonalDataSeal.open(sealed, subject: "u1", keyring: keys) == "Ann")
        // The same bytes with a space inserted, which Foundation would also refuse.
        var spaced = sealed
        spaced.insert(" ", at: spaced.index(spaced.startIndex, offsetBy: PersonalDataSeal.prefix.count + 4))
        #expect(throws: PersonalDataError.tampered(subject: "u1")) { try PersonalDataSeal.open(spaced, subject: "u1", keyring: keys) }
    }
}
