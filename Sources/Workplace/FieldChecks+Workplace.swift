import EventSourcing

/// The workplace's field checks. Every text goes through `FieldChecks.text`, the one text
/// policy (`TextKind`): names and titles on one line, question texts too; answers, remarks
/// and news texts may break lines.
extension FieldChecks {
    /// An organisation, location or form name, or a member's name: trimmed, within `bounds`.
    mutating func name(_ raw: String, in bounds: ClosedRange<Int>, field: String = "name") -> String {
        text(raw, in: bounds, field: field)
    }

    /// A question's text and kind, for `field` (`questions[1]`, or `""` for a lone question).
    /// Like `text`, it returns a value even when invalid (its kind then `text`): the caller
    /// throws the recorded problems before using it.
    mutating func question(_ question: WorkplaceCommand.NewQuestion, field: String) -> WorkplaceEvent.Question {
        let prefix = field.isEmpty ? "" : field + "."
        let text = text(question.text, in: WorkplaceLimits.questionCharacters, field: prefix + "text")
        let kind = QuestionKind(rawValue: question.kind)
        if kind == nil { fail(prefix + "kind", "must be one of \(QuestionKind.names)") }
        return WorkplaceEvent.Question(questionId: question.questionId, text: text, kind: kind ?? .text)
    }

    /// Records a problem on `field` for every name in `names` that repeats an earlier one
    /// (`locations[2].name` repeats `locations[0].name`); empty ones are refused already.
    mutating func uniqueNames(_ names: [String], field: (Int) -> String) {
        var seen: [String: Int] = [:]
        for (index, name) in names.enumerated() {
            let folded = FoldedName.folded(name)
            if folded.isEmpty { continue }
            if let first = seen[folded] {
                fail(field(index), "repeats the name of \(field(first))")
            } else {
                seen[folded] = index
            }
        }
    }

    /// A registration's locations: at least one, at most the per-organisation limit, each name
    /// valid (`locations[0].name`) and unique among them case-insensitively.
    mutating func locations(_ newLocations: [WorkplaceCommand.NewLocation]) -> [WorkplaceEvent.Location] {
        let bounds = 1...WorkplaceLimits.locationsPerOrganisationMax
        if !bounds.contains(newLocations.count) {
            fail("locations", "must hold \(bounds.lowerBound) to \(bounds.upperBound) locations")
        }
        let locations = newLocations.enumerated().map { index, location in
            WorkplaceEvent.Location(
                locationId: location.locationId,
                name: name(location.name, in: WorkplaceLimits.locationNameCharacters, field: "locations[\(index)].name"))
        }
        uniqueNames(locations.map(\.name)) { "locations[\($0)].name" }
        return locations
    }

    /// An employee number: trimmed, `WorkplaceLimits.employeeNumberCharacters` long, one line.
    mutating func employeeNumber(_ raw: String) -> String {
        text(raw, in: WorkplaceLimits.employeeNumberCharacters, field: "employeeNumber")
    }

    /// Throws the collected problems, if any.
    func check() throws(WorkplaceError) {
        try check(WorkplaceError.validationFailed)
    }
}
