import Quiz

/// As its raw value, the log's spelling: the default for string enums.
extension QuizOutcome: ReadModelValue {}
