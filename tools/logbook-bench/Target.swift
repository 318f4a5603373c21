/// The issue's targets, stated next to the figure they judge.
enum Target {
    static func check(_ what: String, _ value: Double, atLeast target: Double, unit: String) -> String {
        line(what, value, met: value >= target, "≥ \(Figure.rate(target).formatted) \(unit)", unit)
    }

    static func check(_ what: String, _ value: Double, atMost target: Double, unit: String) -> String {
        line(what, value, met: value <= target, unit.isEmpty ? "≤ \(target)" : "≤ \(target) \(unit)", unit)
    }

    private static func line(_ what: String, _ value: Double, met: Bool, _ target: String, _ unit: String) -> String {
        let shown = unit == "ms" || unit == "" ? Figure.milliseconds(value).formatted : Figure.rate(value).formatted
        return "target \(what) \(target): \(met ? "met" : "NOT met") (\(shown)\(unit.isEmpty ? "" : " " + unit))"
    }
}
