import Neighbourhood

/// As its raw value, the log's spelling: the default for string enums.
extension ReportCategory: ReadModelValue {}
