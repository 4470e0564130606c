internal import CMicroHTTPD
import Foundation

extension HTTPServer {
    /// Where and how the server listens.
    public struct Configuration: Sendable {
        /// The address to listen on: an IPv4 or IPv6 literal.
        public var host: String
        /// The port; 0 picks a free one (see ``HTTPServer/port``).
        public var port: Int
        /// Worker threads that run the handler; by default one per core. A handler that
        /// waits (on a database, say) wants more.
        public var threads: Int
        /// What one client or network may hold (connections, time, body bytes): see
        /// ``ConnectionGuard``.
        public var limits: ConnectionGuard.Limits
        /// Seconds a connection may sit idle, between requests or within one, before it
        /// is closed (a request's whole deadline is in ``limits``).
        public var timeoutSeconds: Int
        /// The largest request body accepted.
        public var maximumBodyBytes: Int
        /// Where libmicrohttpd's own messages go (a request it refused itself, a connection
        /// over the limit), one line each, control characters made spaces; by default to
        /// standard error.
        public var messages: @Sendable (String) -> Void

        /// Creates a configuration; by default 127.0.0.1:8080, a thread per core, the
        /// guard's default limits, 10 s idle timeout, 1 MiB bodies.
        public init(
            host: String = "127.0.0.1", port: Int = 8080,
            threads: Int = ProcessInfo.processInfo.activeProcessorCount,
            limits: ConnectionGuard.Limits = ConnectionGuard.Limits(),
            timeoutSeconds: Int = 10, maximumBodyBytes: Int = 1 << 20,
            messages: @escaping @Sendable (String) -> Void = HTTPServer.standardErrorMessages
        ) {
            self.host = host
            self.port = port
            self.threads = threads
            self.limits = limits
            self.timeoutSeconds = timeoutSeconds
            self.maximumBodyBytes = maximumBodyBytes
            self.messages = messages
        }
    }

    /// Writes a libmicrohttpd message to standard error, named as such.
    @Sendable public static func standardErrorMessages(_ message: String) {
        FileHandle.standardError.write(Data("libmicrohttpd: \(message)\n".utf8))
    }

    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible, Sendable {
        /// What went wrong, naming the address.
        public var description: String
    }
}

extension HTTPServer.Configuration {
    /// The socket address of ``host`` and ``port``, and whether it is IPv6 (a host with a
    /// colon).
    ///
    /// - Throws: ``HTTPServer/StartError`` when the host is not an address literal.
    func socketAddress() throws(HTTPServer.StartError) -> (sockaddr_storage, isIPv6: Bool) {
        var storage = sockaddr_storage()
        let isIPv6 = host.contains(":")
        let networkPort = UInt16(self.port).bigEndian
        let parsed =
            isIPv6
            ? storage.fill { (address: inout sockaddr_in6) in
                address.sin6_family = sa_family_t(AF_INET6)
                address.sin6_port = networkPort
                return inet_pton(AF_INET6, host, &address.sin6_addr) == 1
            }
            : storage.fill { (address: inout sockaddr_in) in
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = networkPort
                return inet_pton(AF_INET, host, &address.sin_addr) == 1
            }
        guard parsed else {
            throw HTTPServer.StartError(
                description: "\(host) is not an \(isIPv6 ? "IPv6" : "IPv4 or IPv6") address")
        }
        return (storage, isIPv6)
    }
}

extension sockaddr_storage {
    /// Lets `body` write an address of one family into this storage; returns what it returns.
    fileprivate mutating func fill<Address>(_ body: (inout Address) -> Bool) -> Bool {
        withUnsafeMutableBytes(of: &self) { raw in
            body(&raw.baseAddress!.assumingMemoryBound(to: Address.self).pointee)
        }
    }
}
