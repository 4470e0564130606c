import Foundation

/// Where a command writes: standard output and error, or memory in tests.
///
/// Writes are buffered and flushed in large blocks, so printing a billion moves costs
/// little more than formatting them.
public final class CommandOutput {
    private let write: (UnsafeRawBufferPointer) -> Void
    private var buffer: [UInt8] = []
    private let capacity = 1 << 16

    /// An output that appends to a file descriptor.
    public init(fileDescriptor: Int32) {
        write = { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(
                    fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 {
                    if written < 0 && errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
        buffer.reserveCapacity(capacity)
    }

    /// An output that collects text in memory, read with ``text``.
    public init() {
        let storage = Storage()
        write = { storage.bytes.append(contentsOf: $0) }
        self.storage = storage
    }

    private final class Storage { var bytes: [UInt8] = [] }
    private var storage: Storage?

    /// Everything written so far, for in-memory outputs.
    public var text: String {
        flush()
        return String(decoding: storage?.bytes ?? [], as: UTF8.self)
    }

    /// Writes text as is.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer.append(contentsOf: $0) }
        if buffer.count >= capacity { flush() }
    }

    /// Writes text and a newline.
    public func line(_ text: String) {
        write(text)
        buffer.append(10)
        if buffer.count >= capacity { flush() }
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
    }

    /// Writes one ASCII byte.
    public func write(byte: UInt8) { buffer.append(byte) }

    /// Sends buffered bytes on.
    public func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { write($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { flush() }
}
