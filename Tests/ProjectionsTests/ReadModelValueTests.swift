import Accounts
import Foundation
import Neighbourhood
import Quiz
import Testing
import Workplace
@testable import Projections

@Suite("Read-model values")
struct ReadModelValueTests {
    // MARK: Every stored type

    @Test(arguments: ValueSample.all)
    func storedValueRoundTrips(_ sample: ValueSample) throws {
        try sample.expectValue(sample.bytes)
    }

    /// Whatever field the bytes end in, decoding says so instead of making up the rest.
    @Test(arguments: ValueSample.all)
    func everyShorterPrefixIsTruncated(_ sample: ValueSample) {
        for length in 0..<sample.bytes.count {
            #expect(throws: ValueDecodingError.truncated, "\(length) of \(sample.bytes.count) bytes") {
                try sample.expectValue(Array(sample.bytes.prefix(length)))
            }
        }
    }

    @Test(arguments: ValueSample.all)
    func trailingBytesAreRefused(_ sample: ValueSample) {
        #expect(throws: ValueDecodingError.trailingBytes(1)) { try sample.expectValue(sample.bytes + [0]) }
        #expect(throws: ValueDecodingError.trailingBytes(3)) { try sample.expectValue(sample.bytes + [1, 2, 3]) }
    }

    // MARK: Standard conformances

    @Test(arguments: [0, 1, -1, 63, -64, 64, 1_000_000, -1_000_000, Int.min, Int.max, Int.min + 1, Int.max - 1])
    func intRoundTrips(_ value: Int) throws {
        #expect(try Int.decode(from: value.encodedBytes()) == value)
    }

    @Test(arguments: [0, 1, 127, 128, 300, UInt64(UInt32.max) + 1, UInt64.max - 1, UInt64.max])
    func uint64RoundTrips(_ value: UInt64) throws {
        #expect(try UInt64.decode(from: value.encodedBytes()) == value)
    }

    /// Compared by bit pattern: NaN is not equal to itself, and -0.0 equals 0.0.
    @Test(arguments: [
        0.0, -0.0, 1.5, -2.25, .pi, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude,
        .infinity, -.infinity, .nan, -.nan, .signalingNaN, Double(bitPattern: 0x7FF8_0000_DEAD_BEEF),
    ] as [Double])
    func doubleRoundTripsBitForBit(_ value: Double) throws {
        #expect(try Double.decode(from: value.encodedBytes()).bitPattern == value.bitPattern)
    }

    @Test(arguments: [
        SampleDates.first, SampleDates.second, Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_700_000_000.000_123),
        .distantPast, .distantFuture,
    ] as [Date])
    func dateRoundTripsExactly(_ value: Date) throws {
        let decoded = try Date.decode(from: value.encodedBytes())
        #expect(decoded == value && decoded.timeIntervalSinceReferenceDate.bitPattern == value.timeIntervalSinceReferenceDate.bitPattern)
    }

    @Test(arguments: ["", "a", "héllo", "👩🏽‍🚀 家 \u{0} \n", String(repeating: "x", count: 300)])
    func stringRoundTrips(_ value: String) throws {
        #expect(try String.decode(from: value.encodedBytes()) == value)
    }

    @Test func boolsUUIDsAndNestingRoundTrip() throws {
        for flag in [false, true] { #expect(try Bool.decode(from: flag.encodedBytes()) == flag) }
        for id in [UUID(), UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")!] {
            #expect(try UUID.decode(from: id.encodedBytes()) == id)
        }
        for list: [String]? in [nil, [], ["", "b", "ç 🙂"]] {
            #expect(try Optional<[String]>.decode(from: list.encodedBytes()) == list)
        }
        // `.some(nil)` and `nil` are different values and must stay so.
        for nested: Int?? in [.none, .some(.none), .some(.some(-7))] {
            #expect(try Optional<Int?>.decode(from: nested.encodedBytes()) == nested)
        }
        let grid: [[Int]] = [[], [Int.min, 0], [Int.max]]
        #expect(try [[Int]].decode(from: grid.encodedBytes()) == grid)
    }

    /// The layout `ValueWriter` documents, pinned: a codec wrong in both directions at once
    /// would still round-trip.
    @Test func bytesAreTheDocumentedLayout() {
        #expect(0.encodedBytes() == [0])
        #expect((-1).encodedBytes() == [1])
        #expect(1.encodedBytes() == [2])
        #expect((-64).encodedBytes() == [127])
        #expect(64.encodedBytes() == [0x80, 0x01])
        #expect(UInt64(300).encodedBytes() == [0xAC, 0x02])
        #expect(UInt64.max.encodedBytes() == [UInt8](repeating: 0xFF, count: 9) + [0x01])
        #expect(Int.min.encodedBytes() == [UInt8](repeating: 0xFF, count: 9) + [0x01])
        #expect(true.encodedBytes() == [1] && false.encodedBytes() == [0])
        #expect("é".encodedBytes() == [2, 0xC3, 0xA9])
        #expect(1.0.encodedBytes() == [0, 0, 0, 0, 0, 0, 0xF0, 0x3F])
        #expect(Optional<Int>.none.encodedBytes() == [0] && Optional(1).encodedBytes() == [1, 2])
        #expect([true, false].encodedBytes() == [2, 1, 0])
        #expect(QuizOutcome.won.encodedBytes() == "won".encodedBytes())
    }

    // MARK: Damaged bytes

    @Test func truncatedStandardValuesAreTruncated() {
        #expect(throws: ValueDecodingError.truncated) { try Int.decode(from: []) }
        #expect(throws: ValueDecodingError.truncated) { try UInt64.decode(from: [0x80, 0x80]) }
        #expect(throws: ValueDecodingError.truncated) { try Double.decode(from: [0, 0, 0, 0, 0, 0, 0]) }
        #expect(throws: ValueDecodingError.truncated) { try String.decode(from: [3, 0x61, 0x62]) }
        #expect(throws: ValueDecodingError.truncated) { try Optional<Int>.decode(from: [1]) }
    }

    /// A count or length far past the bytes left is refused before anything is allocated for it.
    @Test(arguments: [
        [UInt8](repeating: 0xFF, count: 9) + [0x01, 0x00],
        [0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 1, 2, 3],
        [2, 0],
    ])
    func hugeCountsWithFewBytesAreTruncated(_ bytes: [UInt8]) {
        #expect(throws: ValueDecodingError.truncated) { try [Int].decode(from: bytes) }
        #expect(throws: ValueDecodingError.truncated) { try [[String]].decode(from: bytes) }
        #expect(throws: ValueDecodingError.truncated) { try String.decode(from: bytes) }
    }

    /// Varints longer than 64 bits: 11 bytes, or a tenth byte above 1.
    @Test(arguments: [
        [UInt8](repeating: 0xFF, count: 11),
        [UInt8](repeating: 0x80, count: 10) + [0x00],
        [UInt8](repeating: 0xFF, count: 9) + [0x02],
        [UInt8](repeating: 0xFF, count: 9) + [0x81, 0x00],
    ])
    func overlongVarintsAreInvalid(_ bytes: [UInt8]) {
        expectInvalid(UInt64.self, bytes)
        expectInvalid(Int.self, bytes)
        expectInvalid([Int].self, bytes)
    }

    @Test func valuesNoTypeHasAreInvalid() {
        expectInvalid(Bool.self, [2])
        expectInvalid(Bool.self, [0x80, 0x01])
        expectInvalid(Optional<Int>.self, [2, 0])
        expectInvalid(UUID.self, [15] + [UInt8](repeating: 7, count: 15))
        expectInvalid(ReportCategory.self, "rumour".encodedBytes())
        expectInvalid(QuizOutcome.self, "Won".encodedBytes())
        expectInvalid(QuizOutcome.self, "".encodedBytes())
        // Inside another value: a result whose outcome is not one.
        var result = ValueWriter()
        result.write("user-1")
        result.write(3)
        result.write("forfeit")
        expectInvalid(QuizEvent.GameFinished.Result.self, result.bytes)
        // Text the domain type would not accept is not handed out as one.
        expectInvalid(PasswordHash.self, "hunter2".encodedBytes())
        expectInvalid(SealedToken.self, "not base64!".encodedBytes())
        expectInvalid(SealedToken.self, "".encodedBytes())
        // A question kind the domain does not have.
        expectInvalid(QuestionKind.self, "yes_no".encodedBytes())
        var question = ValueWriter()
        question.write("q1")
        question.write("Punctual?")
        question.write("stars")
        expectInvalid(ReviewFormQuestion.self, question.bytes)
        // A blob reference of no kind the codec knows.
        expectInvalid(BlobReference.self, [3, 1, 0x41])
    }

    private func expectInvalid<T: ReadModelValue>(_ type: T.Type, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: ValueDecodingError.self, "\(T.self) from \(bytes)", sourceLocation: sourceLocation) {
            try T.decode(from: bytes)
        }
        if let error, case .invalid = error { return }
        if let error { Issue.record("\(T.self) from \(bytes): \(error), not invalid", sourceLocation: sourceLocation) }
    }
}
