import Foundation

extension LogbookConfiguration {
    /// Wrong join codes one user, or one client address, may give within `joinFailureWindow`
    /// before its further attempts are slowed down (`JoinThrottle`); a right code is always
    /// accepted.
    static let joinFailuresMax = 10
    /// The window wrong join codes are counted in.
    static let joinFailureWindow: TimeInterval = 15 * 60
    /// How long an attempt waits before its code is checked once its user or its address has
    /// `joinFailuresMax` wrong codes in the window: the cost of each further guess.
    static let joinDelayOverLimit: Duration = .seconds(3)
}
