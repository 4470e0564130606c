import Foundation
import TactileCore

/// Where a command writes: standard output and error, or memory in tests.
///
/// Writes are buffered and flushed in large blocks, so printing a billion moves costs
/// little more than formatting them. A write that fails (a full disk, a closed pipe) is
/// remembered in ``failure`` and everything after it is dropped: a command that streams
/// checks `checkWritable(afterChange:)` and stops, and the program exits non-zero with the reason.
public final class CommandOutput {
    private let send: (UnsafeRawBufferPointer) -> Int32?
    private var buffer: [UInt8] = []
    private let capacity = 1 << 16

    /// The `errno` of the first failed write, or `nil` while every write has succeeded.
    public private(set) var failure: Int32?

    /// The file descriptor it appends to; `nil` for an output in memory.
    package let fileDescriptor: Int32?

    /// An output that appends to a file descriptor.
    public init(fileDescriptor: Int32) {
        send = { bytes in FileAccess.writeAll(bytes, to: fileDescriptor) }
        self.fileDescriptor = fileDescriptor
        buffer.reserveCapacity(capacity)
    }

    /// An output that collects text in memory, read with ``text``.
    ///
    /// - Parameter limit: The most bytes kept; a write past it fails as a full disk would
    ///   (`ENOSPC`), so tests can see how a command copes.
    public init(limit: Int = .max) {
        let storage = Storage()
        send = { bytes in
            guard storage.bytes.count + bytes.count <= limit else { return ENOSPC }
            storage.bytes.append(contentsOf: bytes)
            return nil
        }
        self.storage = storage
        fileDescriptor = nil
    }

    private final class Storage { var bytes: [UInt8] = [] }
    private var storage: Storage?

    /// Everything written so far, for in-memory outputs.
    public var text: String {
        flush()
        return String(decoding: storage?.bytes ?? [], as: UTF8.self)
    }

    /// Why writing failed, such as "No space left on device"; `nil` when it has not.
    public var failureReason: String? { failure.map { String(cString: strerror($0)) } }

    /// Flushes, then throws when a write has failed, so a long stream stops at once.
    ///
    /// - Parameter change: What was already done and must be reported lost with the output
    ///   (a token redeemed, a puzzle registered), so the caller knows not to simply retry.
    func checkWritable(afterChange change: String? = nil) throws(CommandFailure) {
        flush()
        if let failureReason {
            throw .outputFailed(
                (change.map { "\($0): " } ?? "") + "cannot write the output: \(failureReason)")
        }
    }

    /// Writes text as is.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer.append(contentsOf: $0) }
        flushIfFull()
    }

    /// Writes text and a newline.
    public func line(_ text: String) {
        write(text)
        buffer.append(10)
        flushIfFull()
    }

    /// Writes the decimal digits of a number, without allocating.
    public func write(_ number: UInt64) {
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = number
        var count = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[19 - count] = UInt8(48 + n % 10)
                n /= 10
                count += 1
            } while n > 0
            buffer.append(contentsOf: d[(20 - count)...])
        }
        flushIfFull()
    }

    /// Writes one ASCII byte.
    public func write(byte: UInt8) {
        buffer.append(byte)
        flushIfFull()
    }

    /// Whether the last write failed; a streaming loop tests this after every item.
    public var hasFailed: Bool { failure != nil }

    @inline(__always) private func flushIfFull() {
        if buffer.count >= capacity { flush() }
    }

    /// Sends buffered bytes on; after a failure they are dropped.
    public func flush() {
        guard !buffer.isEmpty else { return }
        if failure == nil {
            failure = buffer.withUnsafeBytes { send($0) }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { flush() }
}
