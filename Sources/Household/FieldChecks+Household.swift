import EventSourcing

/// The household's field checks.
extension FieldChecks {
    /// A house, room or task name: trimmed, `HouseholdLimits.nameCharacters` long.
    mutating func name(_ raw: String, field: String = "name") -> String {
        text(raw, in: HouseholdLimits.nameCharacters, field: field)
    }

    /// Records a problem unless `code` is 22–64 URL-safe characters: the caller generates it,
    /// and a short one would be guessable while other characters would not survive sharing.
    mutating func joinCode(_ code: String) {
        let lengthOK = (HouseholdLimits.joinCodeCharactersMin...HouseholdLimits.joinCodeCharactersMax)
            .contains(code.unicodeScalars.count)
        if !lengthOK || !code.unicodeScalars.allSatisfy(Self.isURLSafe) {
            fail("joinCode", "must be \(HouseholdLimits.joinCodeCharactersMin) to \(HouseholdLimits.joinCodeCharactersMax) "
                    + "characters of A-Z, a-z, 0-9, '-' and '_'")
        }
    }

    /// Throws the collected problems, if any.
    func check() throws(HouseholdError) {
        try check(HouseholdError.validationFailed)
    }

    /// The base64url alphabet.
    private static func isURLSafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "-", "_": true
        default: false
        }
    }
}
