import TactileCrypto

/// Where a puzzle was asked for: the site, the page's host name, and the site's action. A
/// pass token carries them, and a site's verification checks them.
public struct SiteBinding: Hashable, Sendable, Codable {
    /// The site key.
    public var siteKey: String
    /// The host name of the page that showed the puzzle.
    public var hostname: String
    /// The action the page named (such as `signup`), or empty.
    public var action: String

    /// Creates a binding.
    public init(siteKey: String, hostname: String, action: String = "") {
        self.siteKey = siteKey
        self.hostname = hostname
        self.action = action
    }
}

/// The price of an answer, and the proof-of-work alternative to dragging: a decimal `nonce`
/// such that SHA-256(`salt` + ":" + `nonce`) starts with at least `difficulty` zero bits — or
/// the same work in `parts` smaller pieces: that many different nonces, joined by commas, each
/// with `difficulty` − log2(`parts`) zero bits. A browser searches in background threads while
/// the person drags; it costs a person a second or so, and each pass costs a script real work.
///
/// Both forms cost 2^`difficulty` hashes on average; the parts only make the wait steadier.
/// The hashes one nonce needs are a geometric count, so the slowest 1 in 20 searches takes 3
/// times the mean; the sum of 16 such counts, about 1 + 1.645/√16 = 1.41 times. A client that
/// knows only the single nonce (as the HTTP contract first had it) pays the same price.
public struct ProofOfWorkChallenge: Hashable, Sendable, Codable {
    /// Random hexadecimal text, different for every puzzle.
    public var salt: String
    /// Leading zero bits a single nonce's digest must have: the price in bits of work.
    public var difficulty: Int
    /// Into how many nonces the work may be split: a power of two from 1 to 64, 1 for none.
    public var parts: Int

    /// The difficulties accepted: 1 to 32 bits.
    public static let difficulties = 1...32

    /// The split a priced puzzle offers: 16 nonces of 4 bits less each.
    public static let standardParts = 16

    /// Creates a challenge.
    public init(salt: String, difficulty: Int, parts: Int = 1) {
        self.salt = salt
        self.difficulty = difficulty
        self.parts = parts
    }

    /// Decodes a challenge; one without parts offers no split.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        salt = try container.decode(String.self, forKey: .salt)
        difficulty = try container.decode(Int.self, forKey: .difficulty)
        parts = try container.decodeIfPresent(Int.self, forKey: .parts) ?? 1
    }

    /// A priced challenge of `difficulty` bits, split into ``standardParts`` where each part
    /// keeps at least one bit.
    public static func priced(salt: String, difficulty: Int) -> ProofOfWorkChallenge {
        let split = standardParts.trailingZeroBitCount
        return ProofOfWorkChallenge(
            salt: salt, difficulty: difficulty, parts: difficulty > split ? standardParts : 1)
    }

    /// Whether `parts` is a split this type can state: a power of two, 1 to 64, leaving each
    /// part at least one bit of `difficulty`.
    public var hasValidParts: Bool {
        (1...64).contains(parts) && parts.nonzeroBitCount == 1
            && difficulty > parts.trailingZeroBitCount
    }

    /// Leading zero bits each nonce of the split answer must have.
    public var partDifficulty: Int { difficulty - parts.trailingZeroBitCount }

    /// The extra bits the proof of work alone (an answer without a drag) must carry, on the
    /// single nonce or on each part: 4 times the work of an answer with one.
    public static let aloneSurcharge = 2

    /// The first nonce, counting from 0, that solves the challenge with `extraBits` more zero
    /// bits; a client's (or a test's) search, about 2^difficulty hashes.
    public func solve(extraBits: Int = 0) -> String {
        var answer: UInt64 = 0
        search(atLeast: difficulty + extraBits) { hits in
            guard let first = hits.first else { return false }
            answer = first.nonce
            return true
        }
        return String(answer)
    }

    /// The first `parts` nonces, counting from 0, that solve the split challenge with
    /// `extraBits` more zero bits each, joined by commas.
    public func solveInParts(extraBits: Int = 0) -> String {
        var found: [UInt64] = []
        search(atLeast: partDifficulty + extraBits) { hits in
            found += hits.prefix(parts - found.count).map(\.nonce)
            return found.count == parts
        }
        return found.map(String.init).joined(separator: ",")
    }

    /// Pays the price in parts as the widget does, then goes on for at most `grace` seconds
    /// more to pay the price of the proof of work alone (``aloneSurcharge`` bits more on each
    /// part), continuing the same search: that answer when found in time, else the price's.
    /// A client's search on every core, for a thread that may wait; `now` reads a clock in
    /// seconds.
    public func payInParts(grace: Double, now: () -> Double) -> String {
        var paid: [UInt64] = []
        var deeper: [UInt64] = []
        var paidAt: Double?
        var answer: [UInt64] = []
        search(atLeast: partDifficulty) { hits in
            for hit in hits {
                if let paidAt, now() - paidAt > grace {
                    answer = paid
                    return true
                }
                if hit.zeros >= partDifficulty + Self.aloneSurcharge { deeper.append(hit.nonce) }
                if paid.count < parts {
                    paid.append(hit.nonce)
                    if paid.count == parts { paidAt = now() }
                }
                if deeper.count == parts {
                    answer = deeper
                    return true
                }
            }
            if let paidAt, now() - paidAt > grace {
                answer = paid
                return true
            }
            return false
        }
        return answer.map(String.init).joined(separator: ",")
    }

    /// Whether `answer` solves the challenge with `extraBits` more zero bits: one nonce of 1 to
    /// 20 decimal digits with `difficulty` + `extraBits` bits, or (when the challenge is
    /// split) exactly `parts` different such nonces joined by commas, each with
    /// ``partDifficulty`` + `extraBits` bits. At most `parts` hashes.
    public func isSolved(by answer: String, extraBits: Int = 0) -> Bool {
        // Longer than the longest answer: refused before it is split.
        guard answer.utf8.count <= max(1, parts) * 21 else { return false }
        let nonces = answer.utf8.split(
            separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        let bits: Int
        switch nonces.count {
        case 1: bits = difficulty + extraBits
        case parts where hasValidParts: bits = partDifficulty + extraBits
        default: return false
        }
        guard Set(nonces.map { Array($0) }).count == nonces.count else { return false }
        return nonces.allSatisfy { nonce in
            (1...20).contains(nonce.count)
                && nonce.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
                && zeroBits(of: String(decoding: nonce, as: UTF8.self)) >= bits
        }
    }

    /// The leading zero bits of SHA-256(`salt` + ":" + `nonce`).
    func zeroBits(of nonce: String) -> Int {
        let digest = Sodium.sha256(Array((salt + ":" + nonce).utf8))
        var zeros = 0
        for byte in digest {
            if byte == 0 {
                zeros += 8
                continue
            }
            zeros += byte.leadingZeroBitCount
            break
        }
        return zeros
    }
}
