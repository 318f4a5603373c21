/// A batch's rows for one `RowProjection`, record by record: record `i`'s rows run from where
/// record `i - 1`'s end to where its own end, so a record the projection ignores has none.
struct PreparedRows: Sendable {
    var rows = ReadModelRows()
    /// Where each record's rows end in `rows`, for every record of the batch (or of a slice).
    var ends: [Int] = []
    /// The rows' indices in the order they are stored (`ReadModelRows.storingOrder`); empty
    /// until `sortForStoring`.
    private(set) var order: [Int32] = []

    init(capacity: Int) {
        ends.reserveCapacity(capacity)
    }

    /// The slices' rows one after another, as if one run had made them all: one slice as it is,
    /// without copying its rows (rows are made ahead in one slice unless decoding needs more).
    init(joining slices: [PreparedRows]) {
        if slices.count == 1 {
            self = slices[0]
            return
        }
        ends.reserveCapacity(slices.reduce(0) { $0 + $1.ends.count })
        for slice in slices {
            let shift = rows.count
            rows.append(contentsOf: slice.rows)
            ends += slice.ends.map { $0 + shift }
        }
    }

    /// Orders the rows for storing: by table and key, so that the puts of one table go through
    /// the B-tree in order instead of from its root at random. Rows made of a batch are spread
    /// over many lists (each house's history, each user's activity); put in the events' order,
    /// almost every put searched pages the processor no longer had in its cache.
    mutating func sortForStoring() {
        order = rows.storingOrder()
    }

    /// The record of the batch whose rows hold row `row`.
    func record(ofRow row: Int) -> Int {
        var low = 0, high = ends.count - 1
        while low < high {
            let middle = (low + high) / 2
            if ends[middle] > row { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The rows of the batch's record `index`.
    func range(of index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }
}
