import Foundation
import Synchronization
import TactileCore
import TactileCrypto

/// A verifier's state as separate records — one per waiting puzzle, client, redeemed token
/// and remembered verification — for a store that several processes share record by record
/// (Redis).
///
/// For each operation the store asks for a ``Plan`` (what to lock, read and take), loads
/// those records, opens a verifier that holds only them, runs the operation, and saves the
/// ``Change``s. Operations on different clients and tokens then never wait for each other,
/// and each record expires by itself when nothing can need it any more.
///
/// Every record is authenticated like the whole state (see ``VerifierSeal``): a header line
/// `TPZREC1 <mac>` and JSON, the MAC being HMAC-SHA-256 under a key derived from the secret,
/// over the record's name and its JSON, so a damaged record, or one moved under another
/// name, fails closed. Record names never contain a client's name (an address): clients
/// appear under a keyed digest.
public enum VerifierRecords {
    /// What one operation needs from the store.
    public struct Plan: Hashable, Sendable {
        /// The name to lock while the operation runs (one per client, one per token), or
        /// `nil` when the operation changes nothing.
        public var lock: String?
        /// Records to read.
        public var reads: [String]
        /// Records to read and remove in one atomic step.
        public var takes: [String]
    }

    /// One record to save or remove after an operation.
    public enum Change: Hashable, Sendable {
        /// Save the record, to be forgotten at `expiresAt` (seconds since 1970).
        case put(name: String, bytes: [UInt8], expiresAt: Double)
        /// Remove the record.
        case remove(name: String)
    }

    static let magic = "TPZREC1"

    /// What a sealed key (``VerifierSeal/makeKey()``) holds, opened and with every key derived
    /// from it, once: a store that opens a verifier for every operation keeps it rather than
    /// derive five HMAC keys each time.
    public struct Keys: Sendable {
        let names: Names
        let mac: HMACKey
        let verifier: PuzzleVerifier.DerivedKeys
        /// The client and puzzle records sealed or opened under these keys lately.
        let memo = Memo()

        /// Opens a sealed key.
        ///
        /// - Throws: ``VerifierStoreError`` when the key is damaged.
        public init(sealed key: [UInt8]) throws(VerifierStoreError) {
            let secret = try VerifierSeal.secret(of: key, name: "the key")
            guard let verifier = PuzzleVerifier.DerivedKeys(secret: secret) else {
                throw VerifierStoreError("the key does not hold a 32-byte secret")
            }
            names = Names(secret: secret)
            mac = HMACKey(PuzzleVerifier.derive(secret, purpose: "record"))
            self.verifier = verifier
        }
    }

    /// How long a client's record outlives its last request: long enough to remember its
    /// failures, never shorter than its rate-limit window or its lockout.
    static func clientRetention(_ policy: VerifierPolicy) -> Double {
        max(3600, policy.window, policy.lockoutDuration, policy.maximumLockoutDuration)
    }

    /// The records an operation in `scope` needs.
    ///
    /// - Parameters:
    ///   - scope: What the operation is about.
    ///   - keys: The store's keys.
    public static func plan(for scope: VerifierScope, keys: Keys) -> Plan {
        let names = keys.names
        switch scope.subject {
        case .issuing(let client):
            let record = names.client(client)
            return Plan(lock: record, reads: [record], takes: [])
        case .checking(let id, let client):
            let record = names.client(client)
            return Plan(
                lock: record, reads: [record],
                takes: Hex.isHex(id, count: 32) ? [names.puzzle(id)] : [])
        case .redeeming(let token, let idempotencyKey, let site):
            guard let nonce = TokenSigner.unverifiedNonce(token) else {
                // Not a token this verifier made: the operation fails and keeps, at most, a
                // remembered answer for the idempotency key.
                let remembered = idempotencyKey.map {
                    names.verification(PuzzleVerifier.remembered($0, site: site, token: token))
                }
                return Plan(lock: remembered, reads: remembered.map { [$0] } ?? [], takes: [])
            }
            var reads = [names.redeemed(nonce)]
            if let idempotencyKey {
                reads.append(
                    names.verification(
                        PuzzleVerifier.remembered(idempotencyKey, site: site, token: token)))
            }
            return Plan(lock: names.redeemed(nonce), reads: reads, takes: [])
        case .inspecting(let client):
            return Plan(lock: nil, reads: [names.client(client)], takes: [])
        case .peeking(let id):
            return Plan(
                lock: nil, reads: Hex.isHex(id, count: 32) ? [names.puzzle(id)] : [], takes: [])
        }
    }

    /// A verifier that holds the records read for `scope` (and nothing else).
    ///
    /// - Parameters:
    ///   - keys: The store's keys.
    ///   - scope: The operation's scope, as given to ``plan(for:keys:)``.
    ///   - records: The records the plan named that exist, by name.
    ///   - policy: The limits the verifier applies.
    /// - Throws: ``VerifierStoreError`` when a record is damaged, sealed under another key or
    ///   another name, or holds values no verifier writes.
    public static func open(
        keys: Keys, scope: VerifierScope, records: [String: [UInt8]], policy: VerifierPolicy
    ) throws(VerifierStoreError) -> PuzzleVerifier {
        let names = keys.names
        var state = VerifierState()
        func load<T: RecordJSON>(_ type: T.Type, _ name: String) throws(VerifierStoreError) -> T? {
            guard let bytes = records[name] else { return nil }
            if let known = keys.memo.value(type, named: name, bytes: bytes) { return known }
            let value = try unseal(type, bytes, name: name, mac: keys.mac)
            keys.memo.keep(value, named: name, bytes: bytes)
            return value
        }
        func loadPuzzle(_ id: String) throws(VerifierStoreError) {
            guard Hex.isHex(id, count: 32),
                let puzzle = try load(VerifierState.Pending.self, names.puzzle(id))
            else { return }
            guard puzzle.id == id else {
                throw VerifierStoreError("\(names.puzzle(id)) holds another puzzle")
            }
            state.pending[id] = puzzle
            state.issueOrder = [id]
        }
        switch scope.subject {
        case .issuing(let client):
            state.clients[client] = try load(VerifierState.Client.self, names.client(client))
        case .checking(let id, let client):
            state.clients[client] = try load(VerifierState.Client.self, names.client(client))
            try loadPuzzle(id)
        case .peeking(let id):
            try loadPuzzle(id)
        case .inspecting(let client):
            state.clients[client] = try load(VerifierState.Client.self, names.client(client))
        case .redeeming(let token, let idempotencyKey, let site):
            if let nonce = TokenSigner.unverifiedNonce(token),
                let redeemed = try load(RedeemedRecord.self, names.redeemed(nonce))
            {
                state.redeemed[nonce] = redeemed.until
            }
            if let idempotencyKey {
                let remembered = PuzzleVerifier.remembered(idempotencyKey, site: site, token: token)
                state.verifications[remembered] = try load(
                    VerifierState.RememberedVerification.self, names.verification(remembered))
            }
        }
        if let problem = state.implausibility() {
            throw VerifierStoreError("a record holds values no verifier writes: \(problem)")
        }
        return PuzzleVerifier(keys: keys.verifier, policy: policy, state: state)
    }

    /// What an operation changed: the records to save and remove.
    ///
    /// - Parameters:
    ///   - opened: The verifier as ``open(keys:scope:records:policy:)`` returned it.
    ///   - verifier: The same verifier after the operation.
    ///   - keys: The store's keys.
    ///   - now: The time of the operation, seconds since 1970.
    public static func changes(
        from opened: PuzzleVerifier, to verifier: PuzzleVerifier, keys: Keys, now: Double
    ) throws(VerifierStoreError) -> [Change] {
        let names = keys.names
        let before = opened.state
        let after = verifier.state
        var changes: [Change] = []
        func put(_ value: some RecordJSON, _ name: String, until: Double) throws(VerifierStoreError)
        {
            let bytes = try seal(value, name: name, mac: keys.mac)
            keys.memo.keep(value, named: name, bytes: bytes)
            changes.append(.put(name: name, bytes: bytes, expiresAt: until))
        }
        for (client, record) in after.clients where before.clients[client] != record {
            let until = max(
                record.lockedUntil, record.lastSeen + clientRetention(verifier.policy), now + 1)
            try put(record, names.client(client), until: until)
        }
        for client in before.clients.keys where after.clients[client] == nil {
            changes.append(.remove(name: names.client(client)))
        }
        for (id, puzzle) in after.pending where before.pending[id] != puzzle {
            try put(puzzle, names.puzzle(id), until: puzzle.expiresAt)
        }
        for id in before.pending.keys where after.pending[id] == nil {
            changes.append(.remove(name: names.puzzle(id)))
        }
        // Kept two minutes past the token's end, so an instance whose clock lags still
        // finds a token redeemed for as long as it would accept it.
        for (nonce, until) in after.redeemed where before.redeemed[nonce] != until {
            try put(RedeemedRecord(until: until), names.redeemed(nonce), until: until + 120)
        }
        for (remembered, answer) in after.verifications
        where before.verifications[remembered] != answer {
            try put(answer, names.verification(remembered), until: answer.until + 120)
        }
        return changes
    }

    // MARK: - Names and seals

    /// Records as last sealed or opened, by name, with what they hold: a record read back
    /// as the same bytes is then neither authenticated nor decoded again (it would give the
    /// same value). Only the kinds read again and again — clients and puzzles — and a bounded
    /// number of them, forgotten all at once when full: a miss only costs the work it would
    /// have saved.
    final class Memo: Sendable {
        private let entries = Mutex<[String: (bytes: [UInt8], value: any Sendable)]>([:])
        /// The most records kept.
        static let capacity = 4096

        /// The value sealed as `bytes` under `name`, if it is the one kept.
        func value<T: RecordJSON>(_ type: T.Type, named name: String, bytes: [UInt8]) -> T? {
            guard T.isReadAgain else { return nil }
            return entries.withLock { entries in
                guard let entry = entries[name], entry.bytes == bytes else { return nil }
                return entry.value as? T
            }
        }

        /// Keeps `value`, sealed as `bytes` under `name`.
        func keep<T: RecordJSON>(_ value: T, named name: String, bytes: [UInt8]) {
            guard T.isReadAgain else { return }
            entries.withLock { entries in
                if entries[name] == nil, entries.count >= Self.capacity {
                    entries.removeAll(keepingCapacity: true)
                }
                entries[name] = (bytes, value)
            }
        }
    }

    /// A redeemed token's record: when the token would expire.
    struct RedeemedRecord: Hashable, Sendable {
        var until: Double
    }

    /// Record names; clients and idempotency keys appear only as keyed digests.
    struct Names: Sendable {
        let key: HMACKey

        init(secret: [UInt8]) {
            key = HMACKey(PuzzleVerifier.derive(secret, purpose: "record-name"))
        }

        private func digest(_ text: String) -> String {
            Hex.encode(Array(key.authenticate(Array(text.utf8)).prefix(16)))
        }

        func client(_ name: String) -> String { "client:" + digest(name) }
        func puzzle(_ id: String) -> String { "puzzle:" + id }
        func redeemed(_ nonce: String) -> String { "redeemed:" + nonce }
        func verification(_ remembered: String) -> String { "verification:" + digest(remembered) }
    }

    static func seal(_ value: some RecordJSON, name: String, mac: HMACKey)
        throws(VerifierStoreError) -> [UInt8]
    {
        seal(body: value.json.serialized(), name: name, mac: mac)
    }

    /// JSON `body` behind the header `TPZREC1 <mac>`, the MAC (under `mac`) over the name and
    /// the body.
    static func seal(body: [UInt8], name: String, mac: HMACKey) -> [UInt8] {
        let tag = mac.authenticate(Array(name.utf8) + [10] + body)
        return Array("\(magic) \(Hex.encode(tag))\n".utf8) + body
    }

    static func unseal<T: RecordJSON>(
        _ type: T.Type, _ bytes: [UInt8], name: String, mac: HMACKey
    ) throws(VerifierStoreError) -> T {
        let headerLength = magic.utf8.count + 1 + 64 + 1
        guard bytes.count > headerLength,
            Array(bytes[0...magic.utf8.count]) == Array((magic + " ").utf8),
            bytes[headerLength - 1] == 10,
            let tag = Hex.decode(
                String(decoding: bytes[(headerLength - 65)..<(headerLength - 1)], as: UTF8.self))
        else { throw VerifierStoreError("\(name) is damaged: its header is not \(magic) <mac>") }
        let body = Array(bytes[headerLength...])
        guard
            mac.verify(tag, message: Array(name.utf8) + [10] + body)
        else {
            throw VerifierStoreError(
                "\(name) failed its authentication check (altered, damaged, moved, or sealed under another key)"
            )
        }
        let json: JSONValue
        do { json = try JSONValue.parse(body) } catch {
            throw VerifierStoreError("\(name) is authentic but cannot be decoded: \(error)")
        }
        guard let value = T(json: json) else {
            throw VerifierStoreError(
                "\(name) is authentic but cannot be decoded: a field is missing or of another type")
        }
        return value
    }
}
