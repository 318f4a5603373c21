import Testing
@testable import logbook_budgets

/// The trace is what the budgets of bytes and syncs rest on: each test gives strace's lines and
/// expects the counts of the window they fall in.
@Suite("Syscall trace")
struct SyscallTraceTests {
    private let begin = #"7 access("/.logbook-budgets-window/begin/w", F_OK) = -1 ENOENT (No such file or directory)"#
    private let end = #"7 access("/.logbook-budgets-window/end/w", F_OK) = -1 ENOENT (No such file or directory)"#

    @Test func writesAndSyncsCountOnlyInsideTheWindowAndByFile() {
        let trace = SyscallTrace(parsing: [
            #"8 pwrite64(5</d/log/data.mdb>, ""..., 4096, 0) = 4096"#,
            begin,
            #"8 pwrite64(5</d/log/data.mdb>, ""..., 4096, 8192) = 4096"#,
            #"8 writev(5</d/log/data.mdb>, [...], 2) = 8192"#,
            #"9 fdatasync(6</d/log/wal-0>) = 0"#,
            #"9 sync_file_range(5</d/log/data.mdb>, 0, 0, SYNC_FILE_RANGE_WRITE) = 0"#,
            #"9 write(1<pipe:[1]>, ""..., 12) = 12"#,
            end,
            #"8 fdatasync(6</d/log/wal-0>) = 0"#,
        ].joined(separator: "\n"))
        let window = trace.windows["w"]
        #expect(window?.bytesWritten == ["/d/log/data.mdb": 12_288, "pipe:[1]": 12])
        #expect(window?.syncs == ["/d/log/wal-0": 1])
        #expect(window?.writebackStarts == ["/d/log/data.mdb": 1])
    }

    @Test func aCallAnotherThreadInterruptedIsJoinedByThread() {
        let trace = SyscallTrace(parsing: [
            begin,
            #"8 pwrite64(5</d/log/wal-1>, ""..., 600, 0 <unfinished ...>"#,
            #"9 fdatasync(6</d/readmodels/data.mdb> <unfinished ...>"#,
            #"8 <... pwrite64 resumed>) = 600"#,
            #"9 <... fdatasync resumed>) = 0"#,
            #"10 <... writev resumed>) = 335"#,  // began before the window: no file, not counted
            end,
        ].joined(separator: "\n"))
        #expect(trace.windows["w"]?.bytesWritten == ["/d/log/wal-1": 600])
        #expect(trace.windows["w"]?.syncs == ["/d/readmodels/data.mdb": 1])
    }

    @Test func aWriteThroughADescriptorOpenedSynchronousIsASync() {
        let trace = SyscallTrace(parsing: [
            #"8 openat(AT_FDCWD</d>, "/d/log/data.mdb", O_WRONLY|O_DSYNC|O_CLOEXEC) = 9</d/log/data.mdb>"#,
            #"8  openat(AT_FDCWD</d>, "/d/log/lock.mdb", O_RDWR|O_CREAT|O_CLOEXEC, 0600) = 10</d/log/lock.mdb>"#,
            begin,
            #"8 pwrite64(9</d/log/data.mdb>, ""..., 136, 4112) = 136"#,
            #"8 pwrite64(10</d/log/lock.mdb>, ""..., 8, 0) = 8"#,
            #"8 pwrite64(11</d/log/data.mdb>, ""..., 4096, 0) = -1 EIO (Input/output error)"#,
            end,
        ].joined(separator: "\n"))
        #expect(trace.windows["w"]?.syncs == ["/d/log/data.mdb": 1])
        #expect(trace.windows["w"]?.bytesWritten == ["/d/log/data.mdb": 136, "/d/log/lock.mdb": 8], "a failed write wrote nothing")
    }
}

/// The check is what fails CI: over a budget, a metric without one, a budget nothing measured.
@Suite("Budget check")
struct BudgetCheckTests {
    private let file = BudgetFile(recording: [
        Measurement(metric: "log.append.syncing.allocationsPerEvent", value: 100, unit: "allocations"),
        Measurement(metric: "log.append.syncing.syncsPerCommit", value: 2, unit: "syncs"),
    ])

    @Test func theMarginsAreTheRecordedValuesOwnShareByKind() {
        #expect(file.budgets.map(\.budget) == [105, 2.04])
    }

    @Test func figuresWithinTheirBudgetsPass() {
        let check = BudgetCheck(file: file, measured: [
            Measurement(metric: "log.append.syncing.allocationsPerEvent", value: 105, unit: ""),
            Measurement(metric: "log.append.syncing.syncsPerCommit", value: 2, unit: ""),
        ])
        #expect(check.failures.isEmpty)
    }

    @Test func aFigureOverItsBudgetFails() {
        let check = BudgetCheck(file: file, measured: [
            Measurement(metric: "log.append.syncing.allocationsPerEvent", value: 105.01, unit: ""),
            Measurement(metric: "log.append.syncing.syncsPerCommit", value: 3, unit: ""),
        ])
        #expect(check.failures == ["log.append.syncing.allocationsPerEvent", "log.append.syncing.syncsPerCommit"])
        #expect(check.table.contains("OVER BUDGET"))
    }

    @Test func aMetricWithoutABudgetAndABudgetNotMeasuredBothFail() {
        let check = BudgetCheck(file: file, measured: [
            Measurement(metric: "log.append.syncing.allocationsPerEvent", value: 1, unit: ""),
            Measurement(metric: "http.get.new.allocationsPerRequest", value: 1, unit: ""),
        ])
        #expect(check.failures == ["http.get.new.allocationsPerRequest", "log.append.syncing.syncsPerCommit"])
    }
}
