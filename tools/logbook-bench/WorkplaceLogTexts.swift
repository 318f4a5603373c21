/// The words the workplace bench log is written in: enough variety that texts, names and
/// sizes look like real use, not one string repeated.
extension WorkplaceLogGenerator {
    static let companyWords = [
        "Northwind", "Harbour", "Greenfield", "Blue Canal", "Tulip", "Polder", "Windmill", "Delta", "Dune", "Meadow",
        "Beacon", "Riverside", "Lighthouse", "Orchard", "Granite", "Copper", "Maple", "Falcon", "Summit", "Anchor",
    ]
    static let companyKinds = ["Logistics", "Care", "Retail", "Bakeries", "Hotels", "Cleaning", "Security", "Catering", "Builders", "Clinics"]
    static let cities = [
        "Amsterdam", "Rotterdam", "Utrecht", "The Hague", "Eindhoven", "Groningen", "Tilburg", "Almere", "Breda", "Nijmegen",
        "Apeldoorn", "Haarlem", "Arnhem", "Enschede", "Amersfoort", "Zaanstad", "Zwolle", "Leiden", "Maastricht", "Delft",
        "Alkmaar", "Deventer", "Venlo",
    ]
    static let firstNames = [
        "Ann", "Bob", "Carla", "Daan", "Emma", "Finn", "Greta", "Hugo", "Iris", "Jan", "Kim", "Lars", "Mila", "Noah", "Olga",
        "Pieter", "Roos", "Sem", "Tess", "Victor", "Wendy", "Yusuf", "Zoë", "Fatima", "Mohamed", "Sanne", "Thijs", "Lotte",
    ]
    static let lastNames = [
        "de Jong", "Jansen", "de Vries", "van den Berg", "van Dijk", "Bakker", "Janssen", "Visser", "Smit", "Meijer",
        "de Boer", "Mulder", "de Groot", "Bos", "Vos", "Peters", "Hendriks", "van Leeuwen", "Dekker", "Brouwer", "El Amrani",
    ]

    /// A person's name, the same for the same `n`.
    static func personName(_ n: Int) -> String {
        "\(firstNames[n % firstNames.count]) \(lastNames[(n / firstNames.count) % lastNames.count])"
    }

    static let formNames = ["Quarterly review", "Probation review", "Annual appraisal", "Safety check", "Customer service review", "Shift review"]
    static let ratingQuestions = [
        "How punctual is the employee?", "How well does the employee work with colleagues?", "How would you rate the quality of the work?",
        "How well does the employee follow the safety rules?", "How friendly is the employee with customers?",
        "How well does the employee handle pressure during busy shifts?", "How would you rate the employee's overall performance this period?",
    ]
    static let yesNoQuestions = [
        "Did the employee complete the mandatory training?", "Would you recommend the employee for more responsibility?",
        "Has the employee been on time for every shift?", "Does the employee keep the workplace tidy?",
        "Did the employee meet the goals agreed in the last review?",
    ]
    static let textQuestions = [
        "What went well this period?", "What should the employee work on next?", "Which goals do you agree on for the next period?",
        "How did the employee contribute to the team?", "Is there anything the employee needs from us?",
    ]
    static let textAnswers = [
        "Always ready to help colleagues and takes the time to explain things to new people on the team.",
        "Handles difficult customers calmly and finds a solution without escalating.",
        "Could plan the week better; a few tasks were finished late because they started late.",
        "Took the lead during the stocktake and kept everyone informed.",
        "Should follow the hygiene checklist more strictly at the end of the shift.",
        "Good progress on the forklift certificate; the practical exam is planned for next month.",
        "Communicates clearly, in the team meeting as well as with customers on the phone.",
        "Wants to learn more about planning and would like to shadow the team lead for a few days.",
        "Sometimes too quiet in meetings; the ideas shared one on one are good and deserve a wider audience.",
        "Reliable and precise. No complaints this quarter.",
    ]
    static let remarks = [
        "Discussed in person; the employee agreed with the points above.",
        "Follow-up meeting in three months.",
        "Great quarter, thank you!",
        "The employee asked for extra training, which we will arrange.",
    ]
    static let newsTitles = [
        "New shift schedule", "Team outing", "Safety inspection next week", "Welcome to our new colleagues", "Parking at the back is closed",
        "Holiday requests", "Canteen menu", "Fire drill", "Quarterly results", "New coffee machine",
    ]
    static let newsSentences = [
        "The schedule for the coming month is on the notice board and in the staff room.",
        "Please hand in your holiday requests before the end of the month.",
        "From Monday the back entrance is closed because of construction work.",
        "We welcome three new colleagues this week; please help them find their way.",
        "The inspection takes place on Thursday morning; make sure the emergency exits are free.",
        "Thank you all for the hard work during the busy season.",
        "Questions? Ask your team lead or drop by the office.",
        "Lunch on Friday is on us, to celebrate the results of the last quarter.",
        "The fire drill starts at ten; follow the instructions of the emergency response officers.",
    ]
}
