import Foundation

/// A `commands` value: the positions one command's append took and, when the append carried
/// one, the command's fingerprint (docs/record-format.md). Entries written before fingerprints
/// existed are the 16 position bytes alone, and read as having none.
package struct CommandEntry: Equatable {
    /// The append's first position; for an append of no events, one past `lastPosition`.
    package var firstPosition: UInt64
    /// The append's last position; for an append of no events, the head it was made at.
    package var lastPosition: UInt64
    /// What the command asked, as its caller digested it; nil when it gave none.
    package var fingerprint: Data?

    static let positionBytes = 16

    package init(firstPosition: UInt64, lastPosition: UInt64, fingerprint: Data?) {
        self.firstPosition = firstPosition
        self.lastPosition = lastPosition
        self.fingerprint = fingerprint
    }

    /// Reads a stored value; nil when it has no room for the positions or a fingerprint over
    /// the limit, or its positions are out of order.
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= Self.positionBytes,
              bytes.count - Self.positionBytes <= EventLogLimits.fingerprintBytesMax else { return nil }
        firstPosition = IndexKeys.uint64(bytes)
        lastPosition = IndexKeys.uint64(bytes, at: 8)
        guard firstPosition >= 1, firstPosition <= lastPosition + 1 else { return nil }
        fingerprint = bytes.count > Self.positionBytes ? Data(bytes[Self.positionBytes...]) : nil
    }

    var encoded: [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(Self.positionBytes + (fingerprint?.count ?? 0))
        bytes.appendBigEndian(firstPosition)
        bytes.appendBigEndian(lastPosition)
        if let fingerprint { bytes.append(contentsOf: fingerprint) }
        return bytes
    }

    /// True for an append of no events: a command that decided nothing, recorded so that its
    /// retry is answered the same.
    var isEmpty: Bool { firstPosition == lastPosition + 1 }

    /// The command's outcome, answered again for a retry.
    package var replay: AppendResult {
        AppendResult(firstPosition: firstPosition, lastPosition: lastPosition, isReplay: true, fingerprint: fingerprint)
    }
}
