import Foundation
import Synchronization

/// Where a connection comes from, as far as sharing the server fairly goes: one client (an
/// IPv4 address, or an IPv6 /64, which one home or host is given) and the network around it
/// (an IPv4 /24, an IPv6 /48). An IPv4 address written as IPv6 (`::ffff:a.b.c.d`) is that
/// IPv4 address.
public struct ClientNetwork: Hashable, Sendable {
    /// The client: 4 bytes of IPv4, or the first 8 of IPv6.
    public let client: [UInt8]
    /// The network: the first 3 bytes of IPv4, or 6 of IPv6.
    public let network: [UInt8]

    /// The client and network of 4 (IPv4) or 16 (IPv6) address bytes; `nil` for another length.
    public init?(addressBytes bytes: [UInt8]) {
        var bytes = bytes
        let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xFF, 0xFF]
        if bytes.count == 16, Array(bytes.prefix(12)) == mappedPrefix {
            bytes = Array(bytes.suffix(4))
        }
        switch bytes.count {
        case 4:
            // A leading 0xFF byte marks IPv4, so no IPv6 prefix is ever equal to it.
            client = [0xFF] + bytes
            network = [0xFF] + bytes.prefix(3)
        case 16:
            client = Array(bytes.prefix(8))
            network = Array(bytes.prefix(6))
        default:
            return nil
        }
    }

    /// The client and network of an address in text (`203.0.113.7`, `2001:db8::1`,
    /// `::ffff:203.0.113.7`); `nil` when it is neither.
    public init?(address: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            self.init(addressBytes: withUnsafeBytes(of: v4) { Array($0) })
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return nil }
        self.init(addressBytes: withUnsafeBytes(of: v6) { Array($0) })
    }
}

/// Keeps a few clients from taking the server from everybody else: how many connections a
/// client and its network may hold, slots kept for clients that hold none, a deadline for
/// every request (not just for idleness: a header byte every few seconds must not hold a
/// connection for ever), and a budget for the request bodies held in memory.
///
/// Pure bookkeeping, safe from any thread: the server asks it whether to accept, tells it
/// what happens on each connection, and closes what ``expired(at:close:)`` hands it. Times are
/// nanoseconds on any monotonic clock the caller chooses.
public final class ConnectionGuard: Sendable {
    /// The limits.
    public struct Limits: Sendable {
        /// The most connections at once.
        public var connections: Int
        /// The most from one client (an IPv4 address, an IPv6 /64).
        public var perClient: Int
        /// The most from one network (an IPv4 /24, an IPv6 /48).
        public var perNetwork: Int
        /// Of ``connections``, how many only a client holding no connection may take.
        public var keptForNewClients: Int
        /// Seconds from a connection being ready (new, or its previous answer sent) to a
        /// request's headers being in; also the allowance, beyond the minimum rate, for its
        /// body and for its answer to be read.
        public var requestSeconds: Int
        /// The slowest a body may arrive, or an answer be read, in bytes a second on average.
        public var minimumBytesPerSecond: Int
        /// Request body bytes held at once, over all connections.
        public var bodyBudget: Int
        /// Of ``bodyBudget``, the most one network may hold.
        public var bodyBudgetPerNetwork: Int
        /// Addresses held to none of the per-client and per-network limits (only to
        /// ``connections`` and ``bodyBudget``): the load balancers in front, whose every
        /// connection is some other client's.
        public var unlimitedAddresses: Set<String> = []

        /// Limits; by default 1,024 connections (64 kept for new clients), 64 per client and
        /// 256 per network, 10 s for headers plus 16 KiB/s for bodies and answers, and 64 MiB
        /// of bodies (16 MiB per network).
        public init(
            connections: Int = 1024, perClient: Int = 64, perNetwork: Int = 256,
            keptForNewClients: Int = 64, requestSeconds: Int = 10,
            minimumBytesPerSecond: Int = 16 << 10, bodyBudget: Int = 64 << 20,
            bodyBudgetPerNetwork: Int = 16 << 20
        ) {
            self.connections = connections
            self.perClient = perClient
            self.perNetwork = perNetwork
            self.keptForNewClients = keptForNewClients
            self.requestSeconds = requestSeconds
            self.minimumBytesPerSecond = minimumBytesPerSecond
            self.bodyBudget = bodyBudget
            self.bodyBudgetPerNetwork = bodyBudgetPerNetwork
        }
    }

    /// One open connection, known by any number the caller chooses (the server uses its
    /// handle's address).
    private struct Open {
        let origin: ClientNetwork
        let socket: Int32
        /// When it is closed unless something moves the deadline on; `nil` while a worker
        /// has its request.
        var deadline: UInt64?
        /// When the current request's headers came in, and the body bytes it sent so far
        /// (its deadline grows with them at the minimum rate).
        var bodyStart: UInt64 = 0
        var bodyBytes = 0
        /// To be closed whatever happens on it (``expireNow(_:)``).
        var isDoomed = false
    }

    private struct State {
        var open: [Int: Open] = [:]
        var perClient: [[UInt8]: Int] = [:]
        var perNetwork: [[UInt8]: Int] = [:]
        var bodyBytes = 0
        var bodyBytesPerNetwork: [[UInt8]: Int] = [:]
    }

    /// The limits it keeps.
    public let limits: Limits
    private let state = Mutex(State())

    /// A guard that keeps `limits`.
    public init(limits: Limits) {
        self.limits = limits
        unlimited = Set(limits.unlimitedAddresses.compactMap { ClientNetwork(address: $0) })
    }

    /// ``Limits/unlimitedAddresses``, as clients.
    private let unlimited: Set<ClientNetwork>

    /// Whether a new connection from `origin` may be accepted now: its client and network
    /// are under their limits, and the last ``Limits/keptForNewClients`` slots go only to a
    /// client that holds no connection.
    public func admits(_ origin: ClientNetwork) -> Bool {
        state.withLock { state in
            if unlimited.contains(origin) { return state.open.count < limits.connections }
            let client = state.perClient[origin.client, default: 0]
            if client >= limits.perClient { return false }
            if state.perNetwork[origin.network, default: 0] >= limits.perNetwork { return false }
            let open = state.open.count
            if open >= limits.connections { return false }
            return client == 0 || open < limits.connections - limits.keptForNewClients
        }
    }

    /// A connection was accepted: counted from now, its first request's headers due within
    /// ``Limits/requestSeconds``.
    public func opened(_ id: Int, origin: ClientNetwork, socket: Int32, at now: UInt64) {
        state.withLock { state in
            state.open[id] = Open(
                origin: origin, socket: socket, deadline: now + seconds(limits.requestSeconds))
            // A load balancer's connections are its clients': they count for nobody's share.
            guard !unlimited.contains(origin) else { return }
            state.perClient[origin.client, default: 0] += 1
            state.perNetwork[origin.network, default: 0] += 1
        }
    }

    /// A request's headers are in: its body is due at the minimum rate from now.
    public func headersArrived(_ id: Int, at now: UInt64) {
        state.withLock { state in
            guard var open = state.open[id], !open.isDoomed else { return }
            open.bodyStart = now
            open.bodyBytes = 0
            open.deadline = now + seconds(limits.requestSeconds)
            state.open[id] = open
        }
    }

    /// Takes `bytes` more of the body budget for a request on connection `id` (declared up
    /// front, or as they arrive). `false`, taking nothing, when the budget or its network's
    /// share is spent.
    public func takeBody(_ bytes: Int, for id: Int) -> Bool {
        state.withLock { state in
            guard let open = state.open[id] else { return false }
            let network = open.origin.network
            let held = state.bodyBytesPerNetwork[network, default: 0]
            guard bytes >= 0, state.bodyBytes + bytes <= limits.bodyBudget,
                held + bytes <= limits.bodyBudgetPerNetwork || unlimited.contains(open.origin)
            else { return false }
            state.bodyBytes += bytes
            state.bodyBytesPerNetwork[network] = held + bytes
            return true
        }
    }

    /// `bytes` of the body arrived on connection `id`: the deadline moves on, so that a
    /// body arriving at the minimum rate (after the allowance) is never cut off, and one
    /// arriving slower is.
    public func bodyArrived(_ bytes: Int, on id: Int) {
        state.withLock { state in
            guard var open = state.open[id], open.deadline != nil, !open.isDoomed else { return }
            open.bodyBytes += max(0, bytes)
            open.deadline =
                open.bodyStart + seconds(limits.requestSeconds) + transferTime(open.bodyBytes)
            state.open[id] = open
        }
    }

    /// Gives back body budget taken for a request from `origin` (its answer is sent, or the
    /// connection gone).
    public func returnBody(_ bytes: Int, from origin: ClientNetwork) {
        guard bytes > 0 else { return }
        state.withLock { state in
            state.bodyBytes -= bytes
            let held = state.bodyBytesPerNetwork[origin.network, default: 0] - bytes
            state.bodyBytesPerNetwork[origin.network] = held > 0 ? held : nil
        }
    }

    /// The connection is to close at the next look at deadlines (within a quarter second).
    public func expireNow(_ id: Int) {
        state.withLock { state in
            state.open[id]?.deadline = 0
            state.open[id]?.isDoomed = true
        }
    }

    /// Whether ``expireNow(_:)`` was called for the connection.
    public func isDoomed(_ id: Int) -> Bool {
        state.withLock { $0.open[id]?.isDoomed ?? false }
    }

    /// A worker has the request: no deadline until it answers.
    public func dispatched(_ id: Int) {
        state.withLock { state in state.open[id]?.deadline = nil }
    }

    /// An answer of `bytes` is queued: it must be read within the allowance at the minimum
    /// rate.
    public func answered(_ id: Int, bytes: Int, at now: UInt64) {
        state.withLock { state in
            guard state.open[id]?.isDoomed == false else { return }
            state.open[id]?.deadline =
                now + seconds(limits.requestSeconds) + transferTime(bytes)
        }
    }

    /// The answer was sent: the next request's headers are due within
    /// ``Limits/requestSeconds``.
    public func completed(_ id: Int, at now: UInt64) {
        state.withLock { state in
            guard state.open[id]?.isDoomed == false else { return }
            state.open[id]?.deadline = now + seconds(limits.requestSeconds)
        }
    }

    /// The connection is closed (its socket not yet reused).
    public func closed(_ id: Int) {
        state.withLock { state in
            guard let open = state.open.removeValue(forKey: id), !unlimited.contains(open.origin)
            else { return }
            Self.decrement(&state.perClient, open.origin.client)
            Self.decrement(&state.perNetwork, open.origin.network)
        }
    }

    /// The sockets of connections past their deadline, handed to `close` under the lock, so
    /// that none can be closed and its number reused meanwhile (``closed(_:)`` waits for
    /// it). Each is handed over once.
    public func expired(at now: UInt64, close: (Int32) -> Void) {
        state.withLock { state in
            for (id, open) in state.open {
                guard let deadline = open.deadline, deadline <= now else { continue }
                state.open[id]?.deadline = nil
                close(open.socket)
            }
        }
    }

    /// Open connections, and request body bytes held.
    public var usage: (connections: Int, bodyBytes: Int) {
        state.withLock { ($0.open.count, $0.bodyBytes) }
    }

    private func seconds(_ count: Int) -> UInt64 { UInt64(max(0, count)) * 1_000_000_000 }

    private func transferTime(_ bytes: Int) -> UInt64 {
        UInt64(max(0, bytes)) * 1_000_000_000 / UInt64(max(1, limits.minimumBytesPerSecond))
    }

    private static func decrement(_ counts: inout [[UInt8]: Int], _ key: [UInt8]) {
        let left = counts[key, default: 0] - 1
        counts[key] = left > 0 ? left : nil
    }
}
