import Foundation
import Workplace

/// Reviews of accepted members with a live form as it is now, and news posted and deleted.
extension WorkplaceLogGenerator {
    /// An admin reviews another accepted member with a live form, answering every question as
    /// the form has it now; nil before the organisation has a form and an employee.
    mutating func review(_ o: inout WorkplaceLogOrganisation, now: Date) -> Step? {
        guard !o.forms.isEmpty, o.members.count >= 2 else { return nil }
        let reviewer = o.admins[Int.random(in: 0..<o.admins.count, using: &random)]
        var employee = o.members[Int.random(in: 0..<o.members.count, using: &random)].userId
        if employee == reviewer { employee = o.members[(o.memberIndex[reviewer]! + 1) % o.members.count].userId }
        let form = o.forms.randomElement(using: &random)!
        var inputs: [WorkplaceCommand.AnswerInput] = []
        for question in form.questions {
            var answer = WorkplaceCommand.AnswerInput(questionId: question.questionId)
            switch question.kind {
            case .rating: answer.rating = Int.random(in: WorkplaceLimits.rating, using: &random)
            case .yesNo: answer.yes = Int.random(in: 0..<4, using: &random) != 0
            case .text: answer.text = Self.textAnswers.randomElement(using: &random)!
            }
            inputs.append(answer)
        }
        let remark = Int.random(in: 0..<5, using: &random) < 2 ? Self.remarks.randomElement(using: &random)! : nil
        let reviewId = "rv\(o.index)-\(o.nextSerial())"
        return Step(
            command: .submitReview(.init(organisationId: o.organisationId, reviewId: reviewId, employeeId: employee, formId: form.formId,
                                         answers: inputs, remark: remark)),
            actor: reviewer, now: now)
    }

    /// An admin posts news to one of the locations.
    mutating func postNews(_ o: inout WorkplaceLogOrganisation, now: Date) -> Step {
        let author = o.admins[Int.random(in: 0..<o.admins.count, using: &random)]
        let news = WorkplaceLogOrganisation.News(newsId: "n\(o.index)-\(o.nextSerial())", locationId: o.locations.randomElement(using: &random)!)
        o.news.append(news)
        let title = "\(Self.newsTitles.randomElement(using: &random)!) (\(o.serial))"
        let text = (0..<Int.random(in: 2...5, using: &random)).map { _ in Self.newsSentences.randomElement(using: &random)! }.joined(separator: " ")
        return Step(
            command: .postNews(organisationId: o.organisationId, newsId: news.newsId, locationId: news.locationId, title: title, text: text,
                               imageBlobId: nil),
            actor: author, now: now)
    }

    /// An admin deletes one of the news items still up; nil when there is none.
    mutating func deleteNews(_ o: inout WorkplaceLogOrganisation, now: Date) -> Step? {
        guard !o.news.isEmpty else { return nil }
        let admin = o.admins[Int.random(in: 0..<o.admins.count, using: &random)]
        let position = Int.random(in: 0..<o.news.count, using: &random)
        let news = o.news[position]
        o.news.swapAt(position, o.news.count - 1)
        o.news.removeLast()
        return Step(command: .deleteNews(organisationId: o.organisationId, newsId: news.newsId), actor: admin, now: now)
    }
}
