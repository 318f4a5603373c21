import EventSourcing
import Foundation

extension WorkplaceEvent {
    /// A question of a review form.
    public struct Question: Codable, Sendable, Equatable {
        /// Server-generated.
        public var questionId: String
        /// Trimmed.
        public var text: String
        /// What the answer must be.
        public var kind: QuestionKind
    }

    /// `workplace.formCreated`.
    public struct FormCreated: WorkplacePayload {
        public static let typeName = "workplace.formCreated"
        public var entityTags: [String] { ["form:\(formId)"] }
        public var event: WorkplaceEvent { .formCreated(self) }

        /// The organisation.
        public var organisationId: String
        /// The new form.
        public var formId: String
        /// Trimmed; unique within the organisation case-insensitively.
        public var name: String
        /// In order.
        public var questions: [Question]
        /// The admin who created it.
        public var actorId: String
    }

    /// `workplace.formRenamed`.
    public struct FormRenamed: WorkplacePayload {
        public static let typeName = "workplace.formRenamed"
        public var entityTags: [String] { ["form:\(formId)"] }
        public var event: WorkplaceEvent { .formRenamed(self) }

        /// The organisation.
        public var organisationId: String
        /// The form.
        public var formId: String
        /// Its new name.
        public var name: String
        /// The admin who renamed it.
        public var actorId: String
    }

    /// `workplace.questionAdded`: at the end of the form.
    public struct QuestionAdded: WorkplacePayload {
        public static let typeName = "workplace.questionAdded"
        public var entityTags: [String] { ["form:\(formId)"] }
        public var event: WorkplaceEvent { .questionAdded(self) }

        /// The organisation.
        public var organisationId: String
        /// The form.
        public var formId: String
        /// The new question.
        public var question: Question
        /// The admin who added it.
        public var actorId: String
    }

    /// `workplace.questionRemoved`.
    public struct QuestionRemoved: WorkplacePayload {
        public static let typeName = "workplace.questionRemoved"
        public var entityTags: [String] { ["form:\(formId)"] }
        public var event: WorkplaceEvent { .questionRemoved(self) }

        /// The organisation.
        public var organisationId: String
        /// The form.
        public var formId: String
        /// The removed question.
        public var questionId: String
        /// The admin who removed it.
        public var actorId: String
    }

    /// `workplace.questionsReordered`: every question of the form, in the new order.
    public struct QuestionsReordered: WorkplacePayload {
        public static let typeName = "workplace.questionsReordered"
        public var entityTags: [String] { ["form:\(formId)"] }
        public var event: WorkplaceEvent { .questionsReordered(self) }

        /// The organisation.
        public var organisationId: String
        /// The form.
        public var formId: String
        /// Every question id of the form, each once, in the new order.
        public var questionIds: [String]
        /// The admin who reordered them.
        public var actorId: String
    }

    /// `workplace.formDeleted`.
    public struct FormDeleted: WorkplacePayload {
        public static let typeName = "workplace.formDeleted"
        public var entityTags: [String] { ["form:\(formId)"] }
        public var event: WorkplaceEvent { .formDeleted(self) }

        /// The organisation.
        public var organisationId: String
        /// The deleted form.
        public var formId: String
        /// The admin who deleted it.
        public var actorId: String
    }
}

extension WorkplaceEvent.QuestionsReordered {
    /// `questions` (the form's before this event, as any type with an id) in this event's
    /// order: the one place the decider's state and the read models take the order from. The
    /// decider names every question once; should an event not, the questions it leaves out keep
    /// their relative order at the end rather than vanish.
    public func reordering<Question>(_ questions: [Question], id: (Question) -> String) -> [Question] {
        let byId = Dictionary(questions.map { (id($0), $0) }, uniquingKeysWith: { first, _ in first })
        let named = Set(questionIds)
        return questionIds.compactMap { byId[$0] } + questions.filter { !named.contains(id($0)) }
    }
}
