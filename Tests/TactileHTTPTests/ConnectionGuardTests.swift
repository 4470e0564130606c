import Testing

@testable import TactileHTTP

/// The connection guard's bookkeeping on a clock the test moves: who is admitted, when a
/// connection's deadline falls, and the body budget.
struct ConnectionGuardTests {
    let second: UInt64 = 1_000_000_000

    func origin(_ address: String) throws -> ClientNetwork {
        try #require(ClientNetwork(address: address))
    }

    @Test func clientsAndNetworksAreTheAddressThe64AndTheirNetworks() throws {
        // IPv4: the address is the client, its /24 the network.
        #expect(try origin("203.0.113.7") != origin("203.0.113.8"))
        #expect(try origin("203.0.113.7").network == origin("203.0.113.8").network)
        #expect(try origin("203.0.113.7").network != origin("203.0.114.7").network)
        // IPv6: one /64 is one client, whatever its last 64 bits; the /48 is the network.
        #expect(try origin("2001:db8:1:2::1") == origin("2001:db8:1:2:ffff:ffff:ffff:ffff"))
        #expect(try origin("2001:db8:1:2::1") != origin("2001:db8:1:3::1"))
        #expect(try origin("2001:db8:1:2::1").network == origin("2001:db8:1:ffff::1").network)
        #expect(try origin("2001:db8:1:2::1").network != origin("2001:db8:2:2::1").network)
        // An IPv4 address written as IPv6 is that address, not a shared ::ffff:0:0/64.
        #expect(try origin("::ffff:203.0.113.7") == origin("203.0.113.7"))
        #expect(try origin("::ffff:203.0.113.7") != origin("::ffff:198.51.100.7"))
        // IPv4 never equals an IPv6 prefix.
        #expect(try origin("0.0.0.0").client != origin("::").client)
        #expect(ClientNetwork(address: "example.com") == nil)
        #expect(ClientNetwork(addressBytes: [1, 2, 3]) == nil)
    }

    @Test func clientsAndNetworksKeepToTheirShareAndNewClientsFindRoom() throws {
        let limits = ConnectionGuard.Limits(
            connections: 10, perClient: 3, perNetwork: 5, keptForNewClients: 2)
        let guardian = ConnectionGuard(limits: limits)
        var next = 0
        func open(_ address: String) throws -> Bool {
            let client = try origin(address)
            guard guardian.admits(client) else { return false }
            next += 1
            guardian.opened(next, origin: client, socket: Int32(next), at: 0)
            return true
        }
        #expect(try (0..<3).allSatisfy { _ in try open("10.0.0.1") })
        #expect(try !open("10.0.0.1"))  // its client's limit
        #expect(try open("10.0.0.2") && open("10.0.0.2"))
        #expect(try !open("10.0.0.3"))  // its network's limit, though the client holds none
        // Other networks fill the rest, up to the slots kept for new clients…
        #expect(try open("10.0.1.1") && open("10.0.1.1") && open("10.0.1.1"))
        #expect(guardian.usage.connections == 8)
        #expect(try open("10.0.2.1"))  // a new client takes a kept slot
        #expect(try !open("10.0.2.1"))  // but one holding a connection does not
        #expect(try open("10.0.3.1"))  // the last kept slot, to another new client
        #expect(try !open("10.0.4.1"))  // full
        // Closing gives the slot back, kept for a new client.
        guardian.closed(1)
        #expect(guardian.usage.connections == 9)
        #expect(try !open("10.0.0.1"))
        #expect(try open("10.0.5.1"))
    }

    @Test func aLoadBalancerIsHeldOnlyToTheTotals() throws {
        var limits = ConnectionGuard.Limits(
            connections: 10, perClient: 2, perNetwork: 3, keptForNewClients: 4,
            bodyBudget: 1000, bodyBudgetPerNetwork: 100)
        limits.unlimitedAddresses = ["10.0.0.1", "not an address"]
        let guardian = ConnectionGuard(limits: limits)
        let proxy = try origin("10.0.0.1")
        for id in 1...10 {
            #expect(guardian.admits(proxy), "connection \(id)")
            guardian.opened(id, origin: proxy, socket: Int32(id), at: 0)
        }
        #expect(!guardian.admits(proxy))  // the total still holds
        #expect(guardian.takeBody(900, for: 1))  // over the network's share, under the budget
        #expect(!guardian.takeBody(101, for: 2))
        // Its neighbour is an ordinary client.
        guardian.closed(10)
        guardian.closed(9)
        #expect(try guardian.admits(origin("10.0.0.2")))
    }

    @Test func aDoomedConnectionStaysDoomed() throws {
        let guardian = ConnectionGuard(limits: ConnectionGuard.Limits())
        guardian.opened(1, origin: try origin("192.0.2.1"), socket: 7, at: 0)
        guardian.expireNow(1)
        guardian.headersArrived(1, at: 1)
        guardian.bodyArrived(100, on: 1)
        guardian.answered(1, bytes: 10, at: 2)
        guardian.completed(1, at: 3)
        #expect(guardian.isDoomed(1))
        var closed: [Int32] = []
        guardian.expired(at: 4) { closed.append($0) }
        #expect(closed == [7])
    }

    @Test func everyRequestHasADeadlineExceptWhileAWorkerHasIt() throws {
        let limits = ConnectionGuard.Limits(requestSeconds: 10, minimumBytesPerSecond: 1000)
        let guardian = ConnectionGuard(limits: limits)
        func expired(at time: UInt64) -> [Int32] {
            var sockets: [Int32] = []
            guardian.expired(at: time) { sockets.append($0) }
            return sockets.sorted()
        }
        let client = try origin("192.0.2.1")
        guardian.opened(1, origin: client, socket: 41, at: 0)
        guardian.opened(2, origin: client, socket: 42, at: 0)
        // Headers are due 10 s after opening, whatever trickles in meanwhile.
        #expect(expired(at: 10 * second - 1).isEmpty)
        guardian.headersArrived(2, at: 3 * second)
        #expect(expired(at: 10 * second) == [41])
        #expect(expired(at: 11 * second).isEmpty)  // each is handed over once
        // Its body must arrive at 1,000 bytes a second after a 10 s allowance: 5,000 bytes
        // buy 5 s, whatever it declared.
        #expect(guardian.takeBody(1_000_000, for: 2))
        #expect(expired(at: 13 * second - 1).isEmpty)
        guardian.bodyArrived(2000, on: 2)
        guardian.bodyArrived(3000, on: 2)
        #expect(expired(at: 18 * second - 1).isEmpty)
        #expect(expired(at: 18 * second) == [42])  // and no more came
        guardian.dispatched(2)
        #expect(expired(at: 100 * second).isEmpty)  // a worker's time is not the client's
        // Its 2,000-byte answer must be read within 10 s + 2 s.
        guardian.answered(2, bytes: 2000, at: 100 * second)
        #expect(expired(at: 112 * second - 1).isEmpty)
        guardian.completed(2, at: 101 * second)  // sent: the next request's headers are due
        #expect(expired(at: 111 * second - 1).isEmpty)
        #expect(expired(at: 111 * second) == [42])
    }

    @Test func theBodyBudgetIsSharedAndComesBack() throws {
        let limits = ConnectionGuard.Limits(bodyBudget: 1000, bodyBudgetPerNetwork: 600)
        let guardian = ConnectionGuard(limits: limits)
        let a = try origin("198.51.100.1")
        let b = try origin("198.51.100.2")  // a's network
        let c = try origin("203.0.113.1")
        guardian.opened(1, origin: a, socket: 1, at: 0)
        guardian.opened(2, origin: b, socket: 2, at: 0)
        guardian.opened(3, origin: c, socket: 3, at: 0)
        #expect(guardian.takeBody(400, for: 1))
        #expect(!guardian.takeBody(201, for: 2))  // the network's share: 600
        #expect(guardian.takeBody(200, for: 2))
        #expect(guardian.takeBody(400, for: 3))
        #expect(!guardian.takeBody(1, for: 3))  // the whole budget: 1,000
        #expect(guardian.usage.bodyBytes == 1000)
        guardian.returnBody(400, from: a)
        #expect(guardian.takeBody(1, for: 3))
        #expect(!guardian.takeBody(1, for: 99))  // no such connection
        #expect(!guardian.takeBody(-5, for: 1))
    }
}
