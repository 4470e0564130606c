import Foundation

/// Where a command reads the lines it is given with `-`: standard input, or text in tests.
///
/// Reading is bounded: a line longer than ``lineLimit`` bytes is an error, not a reason to
/// keep reading.
public final class CommandInput {
    /// The longest line accepted, in bytes.
    public static let lineLimit = 4096

    private let receive: (UnsafeMutableRawBufferPointer) -> Int
    private var buffer: [UInt8] = []
    private var isAtEnd = false

    /// Standard input (or any file descriptor).
    public init(fileDescriptor: Int32 = STDIN_FILENO) {
        receive = { target in
            while true {
                let n = Foundation.read(fileDescriptor, target.baseAddress!, target.count)
                if n < 0, errno == EINTR { continue }
                return n
            }
        }
    }

    /// Text given in advance, for tests.
    public init(text: String) {
        var bytes = Array(text.utf8)
        receive = { target in
            let count = min(bytes.count, target.count)
            target.copyBytes(from: bytes[0..<count])
            bytes.removeFirst(count)
            return count
        }
    }

    /// The next line without its newline (and without a carriage return before it), or
    /// `nil` at the end of the input.
    func readLine(name: String) throws(CommandFailure) -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                var line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                if line.last == 13 { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            guard buffer.count <= Self.lineLimit else {
                throw .usage(
                    "\(name) from standard input: a line is longer than \(Self.lineLimit) bytes")
            }
            if isAtEnd {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return String(decoding: buffer, as: UTF8.self)
            }
            var chunk = [UInt8](repeating: 0, count: 1024)
            let n = chunk.withUnsafeMutableBytes { receive($0) }
            if n < 0 {
                throw .usage(
                    "\(name) from standard input: \(String(cString: strerror(errno)))")
            }
            if n == 0 { isAtEnd = true } else { buffer += chunk[0..<n] }
        }
    }
}
