import Foundation
import TactileCairo
import TactileCommands
import TactileCore
import TactileCrypto
import TactilePuzzle
import TactilePuzzleImaging
import TactilePuzzleSolvers
import TactilePuzzleVerifier

/// `tactile bench puzzle`: puzzle generation with the images encoded as they are handed out,
/// checks, and how often automated solvers find the hole, before and after the image
/// hardening.
enum PuzzleBenchmark {
    static let puzzleRange = 10...10_000
    static let defaultPuzzles = 200

    /// The generators compared: the first generator's images (kept as options), and the
    /// default now, with its background as JPEG (as handed out) and as PNG.
    static let variants: [(name: String, options: PuzzleOptions)] = [
        ("before", PuzzleOptions(treatment: .softened, backgroundFormat: .png)),
        ("after", PuzzleOptions(backgroundFormat: .standard)),
        ("after/PNG", PuzzleOptions(backgroundFormat: .png)),
    ]

    static let solvers: [any PuzzleSolver] = [
        EdgePixelMatcher(), GapFinder(), CannyMatcher(),
        CannyMatcher(thresholds: .fixed(low: 100, high: 200)), IntensityMatcher(),
        ShadowMatcher(), ColourEdgeMatcher(),
    ]

    static func run(output: CommandOutput, arguments: ArgumentParser.Parsed)
        throws(CommandFailure)
    {
        let puzzles = try arguments.integer("puzzles", in: puzzleRange) ?? defaultPuzzles
        let photos: PhotoSet?
        let photoNote: String
        if let directory = arguments.option("pictures") {
            guard let set = PhotoSet(directory: directory) else {
                throw .usage(
                    "--pictures \(directory): no PNG or JPEG file of at least 300x170 pixels there")
            }
            photos = set
            photoNote = "\(set.count) photos from \(directory)"
        } else if let set = PhotoSet.scikitImage() {
            photos = set
            photoNote =
                "\(set.count) photos from \(PhotoSet.scikitImageDirectory) (Debian's python3-skimage)"
        } else {
            photos = nil
            photoNote =
                "photos missing: \(PhotoSet.scikitImageDirectory) not found; install python3-skimage (scripts/setup.sh --with-photos) or pass --pictures DIR"
        }

        let options = PuzzleOptions()
        output.line(
            "Puzzle captcha — 640×360, classic piece, horizontal, one decoy, default options, one core"
        )
        try measureGeneration(options: options, output: output)
        try measureChecks(options: options, output: output)

        // Solvers: each variant's puzzles, as a client gets them, to every solver.
        output.line("")
        output.line(
            "Solvers: share of \(puzzles) puzzles whose hole each finds within the verifier's tolerance (8 px)"
        )
        output.line("  pictures: drawn (ProceduralPicture); \(photoNote)")
        var kinds: [TrialPictures] = [.drawn]
        if let photos { kinds.append(.photos(photos)) }
        var table: [[String]] = solvers.map { [$0.name] }
        var sizes: [String] = []
        let watch = Stopwatch()
        for kind in kinds {
            for variant in variants {
                let trial = SolverTrial(
                    options: variant.options, pictures: kind, puzzles: puzzles, seed: 7_000)
                let outcome: SolverTrial.Outcome
                do { outcome = try trial.run(solvers) } catch {
                    throw CommandFailure(.negative, "the solver trial failed: \(error)")
                }
                for index in solvers.indices {
                    table[index].append(String(format: "%.1f %%", 100 * outcome.rate(index)))
                }
                sizes.append(
                    String(
                        format: "%@ %@: background %.1f KB, piece %.1f KB", kind.name, variant.name,
                        Double(outcome.backgroundBytes) / Double(outcome.puzzles) / 1024,
                        Double(outcome.pieceBytes) / Double(outcome.puzzles) / 1024))
            }
        }
        let header =
            ["solver"]
            + kinds.flatMap { kind in variants.map { "\(kind.name) \($0.name)" } }
        for line in formatTable([header] + table) { output.line("  " + line) }
        output.line(
            "  before: \(describe(variants[0].options)); after: \(describe(variants[1].options))")
        output.line("  mean file sizes: " + sizes.joined(separator: "; "))
        output.line("  (solver trials took \(formatDuration(watch.elapsed)))")
    }

    /// Generation speed on one core, with the images encoded as handed out.
    static func measureGeneration(options: PuzzleOptions, output: CommandOutput)
        throws(CommandFailure)
    {
        // One encoder throughout, as a server would keep one: it holds on to its working
        // memory between images.
        let encoder = PuzzleImageEncoder()
        var random = SeededRandom(seed: 1)
        var sizes = (background: 0, piece: 0, puzzles: 0)
        var seed: UInt64 = 0
        // Each puzzle's picture drawn afresh, every pixel, into the same bitmap (as a server
        // would reuse one).
        var canvas = Bitmap(width: 640, height: 360)
        let fresh = try timePerCall { () throws(CommandFailure) in
            seed &+= 1
            ProceduralPicture.draw(into: &canvas, seed: seed)
            let (background, piece) = try encodedSizes(canvas, options, encoder, &random)
            sizes.background += background
            sizes.piece += piece
            sizes.puzzles += 1
        }
        let picture = ProceduralPicture.make(width: 640, height: 360, seed: 99)
        let cached = try timePerCall { () throws(CommandFailure) in
            _ = try encodedSizes(picture, options, encoder, &random)
        }
        let drawOnly = Stopwatch.timePerCall {
            seed &+= 1
            ProceduralPicture.draw(into: &canvas, seed: seed)
            blackHole(canvas)
        }
        var cutFailed = false
        let cutOnly = Stopwatch.timePerCall {
            do { blackHole(try generate(picture, options, &random)) } catch { cutFailed = true }
        }
        if cutFailed { throw CommandFailure(.negative, "the benchmark could not cut a puzzle") }
        let puzzle = try generate(picture, options, &random)
        let encodeOnly = Stopwatch.timePerCall { blackHole(encoder.encode(puzzle)) }
        let format = options.backgroundFormat
        output.line(
            String(
                format:
                    "  new puzzle, drawn picture, encoded:  %.0f puzzles/s (%@; background %@ %.1f KB, piece PNG %.1f KB)",
                1 / fresh, formatDuration(fresh), describe(format),
                Double(sizes.background) / Double(sizes.puzzles) / 1024,
                Double(sizes.piece) / Double(sizes.puzzles) / 1024))
        output.line(
            String(
                format:
                    "  new puzzle, loaded picture, encoded: %.0f puzzles/s (%@)  (target ≥ 200)",
                1 / cached, formatDuration(cached)))
        output.line(
            "    of which: drawing the picture \(formatDuration(drawOnly)), cutting and treating the holes and the piece \(formatDuration(cutOnly)), encoding both images \(formatDuration(encodeOnly))"
        )
        // The peer: Cairo's PNG writer (libpng and zlib at their defaults), same background.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tactile-bench-\(getpid()).png"
        ).path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let surface = ImageSurface(bitmap: puzzle.background)
        let png = PNGEncoder()
        let ours = Stopwatch.timePerCall { blackHole(png.encode(puzzle.background)) }
        let jpeg = JPEGEncoder()
        let ourJPEG = Stopwatch.timePerCall { blackHole(jpeg.encode(puzzle.background)) }
        var cairoFailed = false
        let cairo = Stopwatch.timePerCall(minimum: 0.5) {
            do { try surface.writePNG(to: scratch) } catch { cairoFailed = true }
        }
        let cairoSize =
            (try? FileManager.default.attributesOfItem(atPath: scratch)[.size] as? Int) ?? 0
        // The piece, the image every puzzle sends as PNG (it needs its alpha): the reason the
        // own encoder is kept rather than Cairo's.
        let pieceSurface = ImageSurface(bitmap: puzzle.piece)
        let ourPiece = Stopwatch.timePerCall { blackHole(png.encode(puzzle.piece)) }
        let cairoPiece = Stopwatch.timePerCall(minimum: 0.5) {
            blackHole((try? pieceSurface.pngData())?.count ?? 0)
        }
        output.line(
            "    piece: PNG \(formatDuration(ourPiece)) (\(png.encode(puzzle.piece).count / 1024) KB; Cairo/libpng \(formatDuration(cairoPiece)), \(((try? pieceSurface.pngData())?.count ?? 0) / 1024) KB: \(String(format: "%.1f", cairoPiece / ourPiece))× slower)"
        )
        if !cairoFailed {
            output.line(
                "    background: PNG \(formatDuration(ours)) (\(png.encode(puzzle.background).count / 1024) KB; Cairo/libpng \(formatDuration(cairo)), \(cairoSize / 1024) KB: \(String(format: "%.1f", cairo / ours))× slower), JPEG q\(jpeg.quality) \(formatDuration(ourJPEG)) (\(jpeg.encode(puzzle.background).count / 1024) KB)"
            )
        }
    }

    /// Checks: each on its own puzzle, against a store of 1,000, with a drag that every rule
    /// and the drag model read in full (the simulated hand of the solvers: the model refuses
    /// most of them, which costs the same as a pass but the token).
    static func measureChecks(options: PuzzleOptions, output: CommandOutput)
        throws(CommandFailure)
    {
        var random = SeededRandom(seed: 3)
        let puzzle = try generate(
            ProceduralPicture.make(width: 640, height: 360, seed: 5), options, &random)
        guard var verifier = PuzzleVerifier(key: [UInt8](repeating: 7, count: 32)) else {
            throw CommandFailure(.negative, "cannot make a verifier")
        }
        verifier.policy.checksPerWindow = .max
        verifier.policy.puzzlesPerWindow = .max
        verifier.policy.failuresBeforeLockout = .max
        var ids: [String] = []
        for _ in 0..<1000 {
            do { ids.append(try verifier.register(puzzle, client: "bench", now: 0).id) } catch {
                throw CommandFailure(.negative, "the benchmark was refused a puzzle")
            }
        }
        let attempts = ids.indices.map { _ in
            PuzzleAttempt(
                position: puzzle.holePosition, displayWidth: 640,
                track: HumanDrag.track(
                    from: puzzle.startPosition, to: puzzle.holePosition, axis: .horizontal,
                    using: &random))
        }
        var judged = 0
        var passes = 0
        let watch = Stopwatch()
        for (id, attempt) in zip(ids, attempts) {
            switch verifier.check(id: id, attempt: attempt, client: "bench", now: 1) {
            case .passed: passes += 1
            case .failed(.machineLike(.scriptLike)): judged += 1
            default: break
            }
        }
        let checkTime = watch.elapsed / Double(ids.count)
        guard passes + judged == ids.count else {
            throw CommandFailure(
                .negative,
                "only \(passes + judged) of \(ids.count) checks reached the drag model")
        }
        output.line(
            String(
                format:
                    "  check (drag rules and model, HMAC token): %.0f checks/s (%@; %d of %d simulated drags passed)",
                1 / checkTime, formatDuration(checkTime), passes, ids.count))
    }

    static func describe(_ format: PuzzleImageFormat) -> String {
        switch format {
        case .png: "PNG"
        case .jpeg(let quality): "JPEG q\(quality)"
        }
    }

    static func describe(_ options: PuzzleOptions) -> String {
        "\(options.treatment.name) treatment, background \(describe(options.backgroundFormat))"
    }

    /// Rows padded into columns: the first left-aligned, the others right-aligned.
    static func formatTable(_ rows: [[String]]) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { c in rows.map { c < $0.count ? $0[c].count : 0 }.max()! }
        return rows.map { row in
            row.enumerated().map { c, cell in
                let pad = String(repeating: " ", count: widths[c] - cell.count)
                return c == 0 ? cell + pad : pad + cell
            }.joined(separator: "   ")
        }
    }

    static func generate(
        _ picture: Bitmap, _ options: PuzzleOptions, _ random: inout SeededRandom
    ) throws(CommandFailure) -> GeneratedPuzzle {
        do {
            return try PuzzleGenerator.generate(picture: picture, options: options, using: &random)
        } catch {
            throw CommandFailure(.negative, error.message)
        }
    }

    /// Generates a puzzle and encodes its two images as handed out: the files' sizes in bytes.
    static func encodedSizes(
        _ picture: Bitmap, _ options: PuzzleOptions, _ encoder: PuzzleImageEncoder,
        _ random: inout SeededRandom
    ) throws(CommandFailure) -> (background: Int, piece: Int) {
        let files = encoder.encode(try generate(picture, options, &random))
        return (files.background.count, files.piece.count)
    }

    static func timePerCall(_ body: () throws(CommandFailure) -> Void) throws(CommandFailure)
        -> Double
    {
        var calls = 0
        let watch = Stopwatch()
        repeat {
            try body()
            calls += 1
        } while watch.elapsed < 1
        return watch.elapsed / Double(calls)
    }
}
