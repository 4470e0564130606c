import Foundation
import Synchronization
import TactilePuzzleStores

/// A `redis-server` on a free loopback port, stopped at the end; persistent (an
/// append-only file, synced on every write, in a scratch folder) or in memory only.
public final class RedisServer: Sendable {
    public let port: Int
    let directory: String?
    /// The server's process while it runs.
    private let process = Mutex<Process?>(nil)
    let extraArguments: [String]

    public init(persistent: Bool = false, arguments: [String] = []) throws {
        port = Self.freePort()
        extraArguments = arguments
        if persistent {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "redis-\(UUID())"
            ).path
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true)
            directory = folder
        } else {
            directory = nil
        }
        try start()
    }

    public func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/redis-server")
        process.arguments =
            ["--port", String(port), "--bind", "127.0.0.1", "--save", ""]
            + (directory.map {
                ["--appendonly", "yes", "--appendfsync", "always", "--dir", $0]
            }
                ?? ["--appendonly", "no"]) + extraArguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process.withLock { $0 = process }
        // Wait until it answers (whatever its settings).
        let backend = try RedisBackend(
            url: "redis://127.0.0.1:\(port)", policy: plumbingPolicy)
        for _ in 0..<100 {
            do {
                _ = try backend.evictionRisk()
                return
            } catch {
                usleep(50_000)
            }
        }
    }

    /// Stops the server: SIGTERM, then SIGKILL if it has not gone within two seconds.
    public func stop() {
        guard let process = process.withLock({ $0.take() }) else { return }
        process.terminate()
        for _ in 0..<200 where process.isRunning { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        for _ in 0..<200 where process.isRunning { usleep(10_000) }
    }

    deinit {
        stop()
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }

    public static func freePort() -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getsockname(socket, $0, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Where the server listens, as `--redis` takes it.
    public var url: String { "redis://127.0.0.1:\(port)" }

    /// Runs `redis-cli` against the test server; its output lines (without the CR that some
    /// replies, such as INFO's, end their lines with).
    public func cli(_ arguments: String...) throws -> [String] {
        try cliLines(arguments)
    }

    private func cliLines(_ arguments: [String]) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/redis-cli")
        process.arguments = ["-p", String(port), "--no-raw"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // A CR LF is one Character, a newline like LF.
        return String(decoding: output, as: UTF8.self).split(whereSeparator: \.isNewline).map(
            String.init)
    }

    /// How many times Redis has run `command` since it started (`INFO commandstats`).
    public func calls(_ command: String) throws -> Int {
        let prefix = "cmdstat_\(command):calls="
        let lines = try cliLines(["--raw", "INFO", "commandstats"])
        guard let line = lines.first(where: { $0.hasPrefix(prefix) }) else { return 0 }
        return Int(line.dropFirst(prefix.count).prefix { $0.isNumber }) ?? -1
    }
}
