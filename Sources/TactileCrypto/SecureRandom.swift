/// Random numbers from the operating system's secure source (through libsodium), read in
/// blocks so that drawing many small numbers stays cheap.
public struct SecureRandom: RandomNumberGenerator, Sendable {
    private var block: [UInt64] = []
    private var index = 0

    /// Creates a generator.
    public init() {}

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        if index == block.count {
            let bytes = Sodium.randomBytes(32 * 8)
            block = stride(from: 0, to: bytes.count, by: 8).map { start in
                bytes[start..<start + 8].reduce(0) { $0 << 8 | UInt64($1) }
            }
            index = 0
        }
        defer { index += 1 }
        return block[index]
    }
}
