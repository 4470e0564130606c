import Foundation
import TactileCairo
import TactileCore
import TactileCrypto
import TactilePuzzle
import TactilePuzzleDesk
import TactilePuzzleImaging
import TactilePuzzleStores
import TactilePuzzleVerifier

/// `tactile puzzle new|check|redeem`: the verifying side of the puzzle captcha, with its state in a
/// directory between runs.
enum PuzzleCommand {
    static let newSpec = ArgumentParser.Spec(
        usage:
            "tactile puzzle new --state DIR --out DIR [--image FILE] [--shape classic|circle|square|svg:FILE] [--axis horizontal|vertical|free] [--seed N]",
        summary:
            "Generate a puzzle: write background.jpg, piece.png and challenge.json (never the answer) to --out, keep the answer in --state, print the id last.",
        options: [
            .init(
                name: "state", valueName: "DIR",
                help: "Verifier state (answers, token key, rate limits); created mode 0700."),
            .init(name: "out", valueName: "DIR", help: "Where the images and challenge go."),
            .init(
                name: "image", valueName: "FILE",
                help:
                    "A picture to cut from, scaled to fill 640x360; \(ImageLoader.limitsDescription). Default: drawn."
            ),
            .init(
                name: "shape", valueName: "SHAPE",
                help:
                    "classic, circle, square, or svg:FILE (SVG path data, at most \(FileAccess.describe(bytes: svgFileLimit)) and \(SVGPathLimits.maximumSegments) segments). Default classic."
            ),
            .init(
                name: "axis", valueName: "AXIS",
                help: "horizontal, vertical or free. Default horizontal."),
            .init(
                name: "seed", valueName: "N",
                help:
                    "Make the drawn picture reproducible; the hole's place is always secret and random."
            ),
        ],
        details: [
            "The puzzle can be checked once within \(formatSeconds(VerifierPolicy().puzzleLifetime)).",
            "An SVG shape must enclose an area: at the piece's size it must cover at least",
            "\(Int(PuzzleOptions.minimumShapeCoverage * 100)) % of the piece's square. Output files are replaced atomically, never through a symbolic link.",
            "Exit codes: 0 written, 2 bad input, 3 rate-limited or locked out, 4 damaged or",
            "unusable state (any alteration, a missing key or state, a mode open to others).",
        ])

    static let checkSpec = ArgumentParser.Spec(
        usage: "tactile puzzle check --state DIR --id ID --x X [--y Y] [--track FILE]",
        summary:
            "Check where the piece was dropped: print a single-use pass token on success.",
        options: [
            .init(name: "state", valueName: "DIR", help: "The state directory used by new."),
            .init(name: "id", valueName: "ID", help: "The puzzle id new printed (32 hex digits)."),
            .init(
                name: "x", valueName: "X",
                help: "Left edge of piece.png on the background, in background pixels."),
            .init(
                name: "y", valueName: "Y",
                help: "Top edge, in background pixels (needed for a free puzzle)."),
            .init(
                name: "track", valueName: "FILE",
                help:
                    "The drag as JSON [{\"x\":…,\"y\":…,\"t\":ms}, …], piece positions; at most \(FileAccess.describe(bytes: DragTrack.maximumBytes)) and \(DragTrack.maximumSamples) samples."
            ),
            .init(
                name: "skip-drag-model-for-tests", valueName: "yes",
                help:
                    "Does not judge how the drag moves (the other rules still apply): for tests of the command's plumbing only."
            ),
        ],
        details: [
            "Each puzzle is checked once, pass or fail. A check without a human-looking track fails.",
            "Like any client, the caller learns only: passed, expired (make a new puzzle), not",
            "passed, or rate-limited. Which rule failed, with its figures, goes to DIR/verifier.log.",
            "Exit codes: 0 passed (token on stdout), 1 expired or not passed, 2 bad input,",
            "3 rate-limited or locked out, 4 damaged or unusable state.",
        ])

    static let serveSpec = ArgumentParser.Spec(
        usage:
            "tactile puzzle serve [--listen HOST:PORT] [--store memory|DIR|redis://HOST:PORT[/DB]|redis-sentinel://HOST:PORT[,HOST:PORT…]/MASTER[/DB]] [--sites FILE] [--pictures DIR] [--trusted-proxy ADDR[,ADDR]] [--metrics-listen HOST:PORT] [--demo]",
        summary:
            "Run the captcha as a web service: the HTTP API, siteverify, /widget.js and a /demo page.",
        options: [
            .init(
                name: "listen", valueName: "HOST:PORT",
                help: "Address to listen on; [::1]:8080 for IPv6. Default 127.0.0.1:8080."),
            .init(
                name: "store", valueName: "STORE",
                help:
                    "memory (default: this process), a state directory shared by processes on one machine, redis://HOST:PORT[/DB] shared by every instance, or redis-sentinel://HOST:PORT[,HOST:PORT…]/NAME[/DB] to follow the primary NAME through failovers."
            ),
            .init(
                name: "sites", valueName: "FILE",
                help:
                    "JSON array of {\"sitekey\", \"secret\", \"hostnames\": […], \"previousSecret\"?, \"previousSecretUntil\"?, \"proofOfWorkDifficulty\"?, \"puzzlesPerMinute\"?, \"answersPerMinute\"?, \"sitePuzzlesPerMinute\"?, \"scriptScoreLimit\"?, \"proofOfWorkAlone\"?, \"keyboard\"?}; read again on SIGHUP. Default: a development site for localhost, printed, and /demo."
            ),
            .init(
                name: "pictures", valueName: "DIR",
                help:
                    "JPEG/PNG photos to cut puzzles from (up to 64, each scaled to fill). Default: drawn."
            ),
            .init(
                name: "metrics-listen", valueName: "HOST:PORT",
                help:
                    "Address of the Prometheus /metrics (never on --listen). Default 127.0.0.1 on a free port, printed."
            ),
            .init(
                name: "trusted-proxy", valueName: "ADDR[,ADDR]",
                help: "Addresses whose X-Forwarded-For names the client (your load balancers)."),
            .init(
                name: "demo", valueName: "",
                help:
                    "Adds /demo, a sign-up form on a built-in demo site (on without --sites).",
                isFlag: true),
            .init(
                name: "reveal-answers-for-tests", valueName: "yes",
                help: "Adds /test/answer/{id}, giving every answer away: for browser tests only."),
            .init(
                name: "skip-drag-model-for-tests", valueName: "yes",
                help:
                    "Does not judge how drags move (the other rules still apply): for tests of pages and plumbing only."
            ),
            .init(
                name: "axis-for-tests", valueName: "horizontal|vertical|free",
                help:
                    "The axis every puzzle's piece moves along (normally horizontal): for browser tests only."
            ),
            .init(
                name: "puzzle-lifetime-for-tests", valueName: "SECONDS",
                help:
                    "Seconds a puzzle can be answered (1…3600; normally 120): for tests of expiry only."
            ),
            .init(
                name: "rate-window-for-tests", valueName: "SECONDS",
                help:
                    "Counts a client's rate limits (a site's puzzlesPerMinute and answersPerMinute) per SECONDS (1…3600) instead of a minute: for tests only."
            ),
        ],
        details: [
            "With --demo (or no --sites), open http://HOST:PORT/demo for a sign-up form protected by the widget. A site adds",
            "<div class=\"tactile-captcha\" data-sitekey=\"…\"></div> and <script type=\"module\" src=\"http://HOST:PORT/widget.js\">,",
            "and its server POSTs {\"secret\", \"response\"} to /v1/siteverify. SIGHUP reads --sites again;",
            "Ctrl-C (SIGINT) or SIGTERM stops.",
        ])

    static let redeemSpec = ArgumentParser.Spec(
        usage: "tactile puzzle redeem --state DIR <token|->",
        summary: "Redeem a pass token once: print its claims, and refuse it ever after.",
        positionals: [("<token|->", "The token check printed; - reads it from standard input.")],
        options: [
            .init(name: "state", valueName: "DIR", help: "The state directory used by new.")
        ],
        details: [
            "Exit codes: 0 redeemed (claims on stdout); 1 forged, altered, expired or already",
            "redeemed; 2 bad input; 4 damaged or unusable state.",
        ])

    static func run(
        _ arguments: [String], input: CommandInput = CommandInput(text: ""), output: CommandOutput
    ) throws(CommandFailure) {
        try dispatch(
            arguments, command: "puzzle",
            [
                ("new", newSpec, makePuzzle), ("check", checkSpec, check),
                ("serve", serveSpec, PuzzleServeCommand.serve),
                (
                    "redeem", redeemSpec,
                    { parsed, output throws(CommandFailure) in
                        try redeem(parsed, output: output, input: input)
                    }
                ),
            ], output: output)
    }

    /// The client name rate limits and tokens are kept under: the local user.
    static var client: String { "uid:\(getuid())" }

    // MARK: - new

    static func makePuzzle(_ parsed: ArgumentParser.Parsed, output: CommandOutput)
        throws(CommandFailure)
    {
        let stateDirectory = try required(parsed, "state")
        let outDirectory = try required(parsed, "out")
        let shape = try shape(parsed.option("shape") ?? "classic")
        let axis = PuzzleAxis(
            rawValue: try parsed.choice("axis", from: PuzzleAxis.allCases.map(\.rawValue))
                ?? "horizontal")!
        let seed = try parsed.integer("seed", in: 0...UInt64.max)
        let options = PuzzleOptions(shape: shape, axis: axis)
        // Refuse unusable outputs before a puzzle is registered and counted.
        for name in outputNames(options) {
            do throws(FileAccessError) {
                try FileAccess.checkTarget(outDirectory + "/" + name)
            } catch {
                throw .usage("--out: \(error)")
            }
        }
        var secure = SecureRandom()
        let source: PictureSource =
            if let image = parsed.option("image") {
                .file(image)
            } else {
                .procedural(seed: seed ?? secure.next())
            }
        let picture: Bitmap
        do {
            picture = try source.picture(width: options.width, height: options.height)
        } catch {
            throw .usage("cannot read --image \(error)")
        }
        // The hole's place always comes from the secure source, whatever --seed says.
        let puzzle: GeneratedPuzzle
        do throws(PuzzleGenerationError) {
            puzzle = try PuzzleGenerator.generate(
                picture: picture, options: options, using: &secure)
        } catch {
            throw .usage(error.message)
        }

        // The images go to --out, not to the store.
        let none = ChallengeImages(background: [], backgroundType: "", piece: [])
        let (desk, _) = try openDesk(stateDirectory)
        let registered = try deskStep { () throws(DeskFailure) in
            try desk.register(
                puzzle, client: client, site: nil, surcharge: 0, images: none, now: now())
        }
        let challenge: PuzzleChallenge
        switch registered {
        case .success(let issued): challenge = issued.challenge
        case .failure(let refusal):
            throw CommandFailure(
                .locked,
                "rate-limited; try again in \(formatSeconds(refusal.until - now()))")
        }

        let images = PuzzleImageEncoder().encode(puzzle)
        let background = "background.\(images.format.fileExtension)"
        // As the HTTP API tells it, the images named by their files beside it.
        let description = JSONValue.object(
            challenge.clientFields(background: background, piece: "piece.png"))
        let files: [(name: String, bytes: [UInt8])] = [
            (background, images.background), ("piece.png", images.piece),
            ("challenge.json", description.serialized() + [10]),
        ]
        do throws(FileAccessError) {
            try FileAccess.createDirectory(outDirectory)
        } catch {
            // The folder that failed may be one above --out.
            let failed = error.path == outDirectory ? "" : "cannot create \(error.path): "
            throw .usage("cannot create --out \(outDirectory): \(failed)\(error.reason)")
        }
        for file in files {
            do throws(FileAccessError) {
                try FileAccess.write(file.bytes, to: outDirectory + "/" + file.name)
            } catch {
                throw .usage("--out: \(error)")
            }
        }
        let shownOut = TerminalText.escaped(outDirectory)
        output.line("\(shownOut)/\(background) \(challenge.imageWidth)x\(challenge.imageHeight)")
        output.line("\(shownOut)/piece.png \(challenge.pieceWidth)x\(challenge.pieceHeight)")
        output.line("\(shownOut)/challenge.json")
        output.line(challenge.id)
        try output.checkWritable(
            afterChange: "puzzle \(challenge.id) was made, but its id could not be written")
    }

    /// The files `new` writes to `--out`.
    static func outputNames(_ options: PuzzleOptions) -> [String] {
        ["background.\(options.backgroundFormat.fileExtension)", "piece.png", "challenge.json"]
    }

    static func shape(_ text: String) throws(CommandFailure) -> PuzzleShape {
        switch text {
        case "classic": return .classic()
        case "circle": return .circle
        case "square": return .square
        default:
            guard text.hasPrefix("svg:"), text.count > 4 else {
                throw .usage(
                    "--shape must be one of classic, circle, square, svg:FILE, got \(TerminalText.quoted(text))"
                )
            }
            let path = String(text.dropFirst(4))
            let data: [UInt8]
            do { data = try FileAccess.read(path: path, limit: svgFileLimit) } catch {
                throw .usage("--shape: \(error)")
            }
            guard let svg = String(validating: data, as: UTF8.self) else {
                throw .usage("--shape svg:\(path): the file is not UTF-8 text")
            }
            do {
                return try PuzzleShape.svg(svg.trimmingCharacters(in: .whitespacesAndNewlines))
            } catch {
                throw .usage("--shape svg:\(path): \(error.message)")
            }
        }
    }

    /// The largest SVG shape file read.
    static let svgFileLimit = 64 << 10

    // MARK: - check

    static func check(_ parsed: ArgumentParser.Parsed, output: CommandOutput)
        throws(CommandFailure)
    {
        let stateDirectory = try required(parsed, "state")
        let id = try required(parsed, "id")
        guard id.utf8.count == 32, id.utf8.allSatisfy({ $0.isLowerHexDigit }) else {
            throw .usage(
                "--id must be 32 lower-case hexadecimal digits, got \(TerminalText.quoted(id))")
        }
        let x = try ValueParser.number(required(parsed, "x"), name: "--x", in: -100_000...100_000)
        let y = try parsed.number("y", in: -100_000...100_000)
        let track = try parsed.option("track").map { path throws(CommandFailure) in
            try readTrack(path)
        }
        let skipsModel = try parsed.choice("skip-drag-model-for-tests", from: ["yes"]) != nil
        if skipsModel {
            FileHandle.standardError.write(
                Data(
                    "tactile puzzle: WARNING: --skip-drag-model-for-tests lets scripted drags pass; never use it for real\n"
                        .utf8))
        }

        var policy = VerifierPolicy()
        if skipsModel { policy.trajectory.maximumScriptScore = 1 }
        let (desk, store) = try openDesk(stateDirectory, policy: policy)
        let pending = try deskStep { () throws(DeskFailure) in
            try desk.pendingPuzzle(id: id, now: now())
        }
        if let axis = pending?.axis, axis != .horizontal, y == nil {
            throw .usage("--y is needed for a \(axis.rawValue) puzzle")
        }
        // A horizontal puzzle's row is fixed and given out; it is not compared.
        let answer = DeskAnswer(position: Point(x: x, y: y ?? 0), track: track ?? [])
        let answered = try deskStep { () throws(DeskFailure) in
            try desk.answer(answer, to: id, client: client, now: now())
        }
        // The operator learns what failed; the caller, below, only the verdict.
        let detail: String =
            switch answered.outcome {
            case .passed: "passed"
            case .failed(let failure): "\(failure.verdict.code): \(failure)"
            case .locked: "rate-limited"
            }
        do {
            try store.log(
                "\(Date().ISO8601Format()) check puzzle=\(id.prefix(8)) client=\(answered.clientDigest) \(detail)"
            )
        } catch {
            // The operator must hear that the log is broken, though not what it would say.
            FileHandle.standardError.write(
                Data("tactile puzzle: warning: \(TerminalText.escaped("\(error)"))\n".utf8))
        }
        let checked = now()
        try tell(answered.outcome.verdict(now: checked), now: checked, output: output)
    }

    /// Tells the caller a verdict as every client of the captcha reads it: through the
    /// client's session (``PuzzleSession``), which hands a token over, asks for a fresh puzzle
    /// (here: the caller makes one) or waits out a lockout.
    static func tell(_ verdict: PuzzleVerdict, now: Double, output: CommandOutput)
        throws(CommandFailure)
    {
        var session = PuzzleSession()
        _ = session.handle(.newPuzzle, now: now)
        _ = session.handle(.challengeLoaded(request: session.request, lifetime: nil), now: now)
        _ = session.handle(.answered, now: now)
        let effects = session.handle(.verdictArrived(request: session.request, verdict), now: now)
        for case .token(let token?) in effects {
            output.line(token)
            output.flush()
            if let reason = output.failureReason {
                throw .outputFailed(
                    "passed, but the token could not be written (\(reason)); the puzzle is used up, so make a new one"
                )
            }
            return
        }
        switch (session.phase, session.notice) {
        case (.locked(let until), _):
            throw CommandFailure(
                .locked, "rate-limited; try again in \(formatSeconds(until - now))")
        case (.loading, .expired):
            throw CommandFailure(
                .negative,
                "expired: the puzzle is gone (expired or already checked); make a new one")
        default:
            throw CommandFailure(.negative, "not passed; make a new puzzle and try again")
        }
    }

    // MARK: - redeem

    static func redeem(_ parsed: ArgumentParser.Parsed, output: CommandOutput, input: CommandInput)
        throws(CommandFailure)
    {
        let stateDirectory = try required(parsed, "state")
        var token = parsed.positionals[0]
        if token == "-" {
            guard let line = try input.readLine(name: "the token") else {
                throw .usage("the token: standard input ended before a token was read")
            }
            token = line.trimmingCharacters(in: .whitespaces)
        }
        let (desk, _) = try openDesk(stateDirectory)
        let result = try deskStep { () throws(DeskFailure) in try desk.redeem(token, now: now()) }
        switch result {
        case .success(let claims):
            func time(_ seconds: Double) -> String {
                Date(timeIntervalSince1970: seconds).ISO8601Format()
            }
            output.line("puzzle \(claims.puzzleID)")
            output.line("client \(claims.clientDigest)")
            output.line("site \(claims.siteKey.isEmpty ? "-" : claims.siteKey)")
            output.line("mode \(claims.mode.rawValue)")
            output.line("issued \(time(claims.issuedAt))")
            output.line("expires \(time(claims.expiresAt))")
            try output.checkWritable(
                afterChange: "the token was redeemed, but its claims could not be written")
        case .failure(let error):
            throw CommandFailure(.negative, "token refused: \(error)")
        }
    }

    // MARK: - Tracks

    static func readTrack(_ path: String) throws(CommandFailure) -> [PuzzleTrackPoint] {
        let bytes: [UInt8]
        do { bytes = try FileAccess.read(path: path, limit: DragTrack.maximumBytes) } catch {
            throw .usage("--track: \(error)")
        }
        do { return try DragTrack.decode(bytes) } catch {
            throw .usage("--track \(path): \(error)")
        }
    }

    // MARK: - Helpers

    static func required(_ parsed: ArgumentParser.Parsed, _ name: String) throws(CommandFailure)
        -> String
    {
        guard let value = parsed.option(name), !value.isEmpty else {
            throw .usage("missing --\(name)")
        }
        return value
    }

    static func now() -> Double { Date().timeIntervalSince1970 }

    /// The captcha's desk over the state directory `directory` (created if needed), and the
    /// directory; a path that cannot be a state directory is bad input (2).
    static func openDesk(_ directory: String, policy: VerifierPolicy = VerifierPolicy())
        throws(CommandFailure) -> (CaptchaDesk, VerifierStore)
    {
        let backend: DirectoryBackend
        do {
            backend = try DirectoryBackend(directory: directory, policy: policy)
        } catch {
            throw CommandFailure(error.isBadPath ? .usage : .damagedStore, error.message)
        }
        let configuration = CaptchaDesk.Configuration(policy: policy)
        return (CaptchaDesk(configuration: configuration, store: backend), backend.store)
    }

    /// What one step of the desk gives; a store that cannot be trusted fails closed (4).
    static func deskStep<R>(_ body: () throws(DeskFailure) -> R) throws(CommandFailure) -> R {
        do {
            return try body()
        } catch .storeUnavailable(let error as VerifierStoreError) {
            throw CommandFailure(error.isBadPath ? .usage : .damagedStore, error.message)
        } catch {
            throw CommandFailure(.damagedStore, "\(error)")
        }
    }

    static func formatSeconds(_ seconds: Double) -> String {
        "\(max(1, Int(seconds.rounded(.up)))) s"
    }
}

extension UInt8 {
    fileprivate var isLowerHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
            || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
    }
}
