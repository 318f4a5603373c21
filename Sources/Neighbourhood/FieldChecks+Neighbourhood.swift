import EventSourcing

/// The neighbourhood's field checks.
extension FieldChecks {
    /// The category named `raw`, recording a problem when there is none.
    mutating func category(_ raw: String) -> ReportCategory? {
        guard let category = ReportCategory(rawValue: raw) else {
            fail("category", "must be one of \(ReportCategory.names)")
            return nil
        }
        return category
    }

    /// Records a problem unless `degrees` is a finite number within `bounds` (NaN and the
    /// infinities are in no finite range).
    mutating func degrees(_ degrees: Double, in bounds: ClosedRange<Double>, field: String) {
        if !bounds.contains(degrees) {
            fail(field, "must be from \(Int(bounds.lowerBound)) to \(Int(bounds.upperBound)) degrees")
        }
    }

    /// Throws the collected problems, if any.
    func check() throws(NeighbourhoodError) {
        try check(NeighbourhoodError.validationFailed)
    }
}
