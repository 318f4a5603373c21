import Foundation
import TestSupport
import Testing

/// The README's "Use it from an app" cannot drift from the program CI builds and runs
/// (`Examples/HouseholdApp`, `.ci/run`): its Swift block is that program's own lines. The block
/// is in parts, each headed by a comment naming a file of the example (`// Package.swift`), and
/// every other line of a part is a line of that file (indentation aside), in the file's order.
@Suite("README: the client's section")
struct ReadmeClientSectionTests {
    static let example = PackageFiles.root.appendingPathComponent("Examples/HouseholdApp")

    @Test func theSwiftBlockIsTheExampleProgramsOwnLines() throws {
        let readme = try String(contentsOf: PackageFiles.root.appendingPathComponent("README.md"), encoding: .utf8)
        let block = try #require(ReadmeExcerpt.swiftBlock(ofSection: "Use it from an app", in: readme), "the README has the section and its swift block")
        let excerpt = ReadmeExcerpt(block: block)
        #expect(excerpt.parts.map(\.file) == ["Package.swift", "Sources/HouseholdApp/main.swift"])
        #expect(excerpt.parts.allSatisfy { !$0.lines.isEmpty })
        let mismatches = try excerpt.mismatches { try String(contentsOf: Self.example.appendingPathComponent($0), encoding: .utf8) }
        #expect(mismatches.isEmpty, "lines of the README's block that the example does not have there: \(mismatches)")
    }

    /// The check can fail: a line the file lacks, or has only before the previous one, is named.
    @Test func aLineTheExampleLacksOrHasElsewhereIsCaught() throws {
        let file = "let a = 1\n    let b = 2\nlet c = 3\n"
        let excerpt = ReadmeExcerpt(block: """
            // main.swift
            let a = 1
            let c = 3
            let b = 2
            let d = 4
            """)
        #expect(try excerpt.mismatches { _ in file } == ["main.swift: let b = 2", "main.swift: let d = 4"])
        #expect(try ReadmeExcerpt(block: "let a = 1").mismatches { _ in file } == ["(no file named): let a = 1"])
        #expect(try ReadmeExcerpt(block: "// main.swift\nlet a = 1\nlet b = 2").mismatches { _ in file }.isEmpty)
    }
}

/// A README block of excerpts: parts headed `// <file>`, each of lines that file has in order.
struct ReadmeExcerpt {
    struct Part {
        let file: String
        var lines: [String]
    }

    let parts: [Part]
    /// Lines before any part's heading: they name no file, so they match none.
    let headless: [String]

    init(block: String) {
        var parts: [Part] = []
        var headless: [String] = []
        for raw in block.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if let heading = line.wholeMatch(of: /\/\/ (?<file>[\w\/.-]+\.swift)/) {
                parts.append(Part(file: String(heading.output.file), lines: []))
            } else if parts.isEmpty {
                headless.append(line)
            } else {
                parts[parts.count - 1].lines.append(line)
            }
        }
        self.parts = parts
        self.headless = headless
    }

    /// The block's lines that their file does not have after the line before them
    /// (`file: line`); empty when the block is an excerpt.
    func mismatches(reading contents: (String) throws -> String) rethrows -> [String] {
        var mismatches = headless.map { "(no file named): \($0)" }
        for part in parts {
            let lines = try contents(part.file).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            var next = 0
            for line in part.lines {
                if let found = lines[next...].firstIndex(of: line) {
                    next = found + 1
                } else {
                    mismatches.append("\(part.file): \(line)")
                }
            }
        }
        return mismatches
    }

    /// The first ```swift block of the README's `## <title>` section.
    static func swiftBlock(ofSection title: String, in readme: String) -> String? {
        guard let start = readme.range(of: "\n## \(title)\n") else { return nil }
        let rest = readme[start.upperBound...]
        let section = rest.range(of: "\n## ").map { rest[..<$0.lowerBound] } ?? rest
        return section.firstMatch(of: /```swift\n(?<body>[\s\S]*?)```/).map { String($0.output.body) }
    }
}
