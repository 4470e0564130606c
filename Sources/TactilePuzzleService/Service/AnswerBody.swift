import TactileCore
import TactilePuzzleVerifier

/// The body of `POST /v1/challenges/{id}/answer`: a drag (`x`, `y`, `track`, `input`) or a
/// proof of work.
struct AnswerBody {
    struct Sample {
        var x: Double
        var y: Double
        var t: Double
    }
    struct Work { var nonce: String }
    var x: Double?
    var y: Double?
    var track: [Sample]?
    var input: String?
    var pointer: String?
    var proofOfWork: Work?
    var displayWidth: Double?

    /// Reads the body; `nil` when it is not JSON or a field has the wrong type (a missing
    /// or `null` field is absent; other fields are skipped). Read as it comes, with no
    /// tree: a track has hundreds of samples.
    init?(_ bytes: [UInt8]) {
        do throws(JSONError) {
            self = try JSONScanner.scan(bytes) { scanner throws(JSONError) in
                var body = AnswerBody()
                try scanner.members { scanner, key throws(JSONError) in
                    guard try !scanner.null() else { return }
                    switch key {
                    case "x": body.x = try scanner.number()
                    case "y": body.y = try scanner.number()
                    case "input": body.input = try scanner.string()
                    case "pointer": body.pointer = try scanner.string()
                    case "displayWidth": body.displayWidth = try scanner.number()
                    case "proofOfWork": body.proofOfWork = try Self.work(&scanner)
                    case "track": body.track = try Self.samples(&scanner)
                    default: try scanner.skip()
                    }
                }
                return body
            }
        } catch {
            return nil
        }
    }

    private init() {}

    private static func work(_ scanner: inout JSONScanner) throws(JSONError) -> Work {
        var nonce: String?
        try scanner.members { scanner, key throws(JSONError) in
            if key == "nonce" { nonce = try scanner.string() }
        }
        guard let nonce else { throw JSONError(offset: 0, reason: "no nonce") }
        return Work(nonce: nonce)
    }

    private static func samples(_ scanner: inout JSONScanner) throws(JSONError) -> [Sample] {
        var samples: [Sample] = []
        samples.reserveCapacity(128)
        try scanner.elements { scanner throws(JSONError) in
            var x: Double?
            var y: Double?
            var t: Double?
            try scanner.members { scanner, key throws(JSONError) in
                switch key {
                case "x": x = try scanner.number()
                case "y": y = try scanner.number()
                case "t": t = try scanner.number()
                default: try scanner.skip()
                }
            }
            guard let x, let y, let t else {
                throw JSONError(offset: 0, reason: "a sample without x, y and t")
            }
            samples.append(Sample(x: x, y: y, t: t))
        }
        return samples
    }
}
