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

/// The proof-of-work alternative to dragging: find a decimal `nonce` such that
/// SHA-256(`salt` + ":" + `nonce`) starts with at least `difficulty` zero bits. A browser
/// does this in a background thread; it costs a person nothing but a few seconds, and makes
/// each pass cost a script real work.
public struct ProofOfWorkChallenge: Hashable, Sendable, Codable {
    /// Random hexadecimal text, different for every puzzle.
    public var salt: String
    /// Leading zero bits required.
    public var difficulty: Int

    /// The difficulties accepted: 1 to 32 bits.
    public static let difficulties = 1...32

    /// Creates a challenge.
    public init(salt: String, difficulty: Int) {
        self.salt = salt
        self.difficulty = difficulty
    }

    /// The extra bits the proof of work alone (an answer without a drag) must carry: 4
    /// times the work of an answer with one.
    public static let aloneSurcharge = 2

    /// The first nonce, counting from 0, that solves the challenge with `extraBits` more zero
    /// bits; a client's (or a test's) search, about 2^difficulty hashes.
    public func solve(extraBits: Int = 0) -> String {
        var candidate: UInt64 = 0
        while !isSolved(by: String(candidate), extraBits: extraBits) { candidate += 1 }
        return String(candidate)
    }

    /// Whether `nonce` (decimal digits, at most 20) solves the challenge, with `extraBits`
    /// more zero bits than its difficulty.
    public func isSolved(by nonce: String, extraBits: Int = 0) -> Bool {
        guard (1...20).contains(nonce.utf8.count),
            nonce.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return false }
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
        return zeros >= difficulty + extraBits
    }
}
