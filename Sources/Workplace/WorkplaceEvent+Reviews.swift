import EventSourcing
import Foundation

extension WorkplaceEvent {
    /// One answer of a review, with its question as it was when the review was submitted.
    /// Exactly one of `rating`, `yes`, `text` is set: the one `kind` asks for.
    public struct Answer: Codable, Sendable, Equatable {
        /// The question's id in the form at the time.
        public var questionId: String
        /// The question's text at the time.
        public var question: String
        /// The question's kind at the time.
        public var kind: QuestionKind
        /// 1–5, for a `rating` question.
        public var rating: Int?
        /// For a `yesNo` question.
        public var yes: Bool?
        /// Trimmed, for a `text` question.
        public var text: String?
    }

    /// `workplace.reviewSubmitted`: a snapshot, so that later form edits and deletions never
    /// change a stored review.
    public struct ReviewSubmitted: WorkplacePayload {
        public static let typeName = "workplace.reviewSubmitted"
        public var entityTags: [String] { ["review:\(reviewId)", "form:\(formId)"] }
        public var event: WorkplaceEvent { .reviewSubmitted(self) }
        public var subjectUserId: String? { employeeId }

        /// The organisation.
        public var organisationId: String
        /// The new review.
        public var reviewId: String
        /// The reviewed member.
        public var employeeId: String
        /// The admin who reviewed.
        public var reviewerId: String
        /// The reviewer's member name at the time.
        public var reviewerName: String
        /// The form used.
        public var formId: String
        /// The form's name at the time.
        public var formName: String
        /// One per question of the form, in the form's order at the time.
        public var answers: [Answer]
        /// Trimmed; absent when none was given.
        public var remark: String?
        /// When: the command's metadata time.
        public var submittedAt: Date
    }
}
