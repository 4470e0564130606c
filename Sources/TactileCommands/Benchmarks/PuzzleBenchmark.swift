import Foundation
import TactileCairo
import TactileCore
import TactileCrypto
import TactilePuzzle
import TactilePuzzleSolvers
import TactilePuzzleVerifier

/// `tactile bench puzzle`: puzzle generation with PNG encoding, checks, and how often an
/// automated gap finder beats the hole treatment.
enum PuzzleBenchmark {
    static func run(output: CommandOutput) throws(CommandFailure) {
        #if DEBUG
            output.line(
                "warning: this is a debug build; run `swift run -c release tactile bench puzzle` for real figures"
            )
        #endif
        let options = PuzzleOptions(width: 640, height: 360, shape: .classic(), decoyCount: 1)
        output.line("Puzzle captcha — 640×360, classic piece, one decoy, one core")

        // Generation, from a fresh drawn picture each time and from a loaded picture; every
        // puzzle's two images PNG-encoded, their sizes summed. One encoder throughout, as a
        // server would keep one: it holds on to its working memory between images.
        let encoder = PNGEncoder()
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
        let encodeOnly = Stopwatch.timePerCall {
            blackHole(encoder.encode(puzzle.background))
            blackHole(encoder.encode(puzzle.piece))
        }
        output.line(
            String(
                format:
                    "  new puzzle, drawn picture, PNG-encoded:  %.0f puzzles/s (%@; PNGs %.0f KB + %.1f KB)",
                1 / fresh, formatDuration(fresh),
                Double(sizes.background) / Double(sizes.puzzles) / 1024,
                Double(sizes.piece) / Double(sizes.puzzles) / 1024))
        output.line(
            String(
                format:
                    "  new puzzle, loaded picture, PNG-encoded: %.0f puzzles/s (%@)  (target ≥ 200)",
                1 / cached, formatDuration(cached)))
        output.line(
            "    of which: drawing the picture \(formatDuration(drawOnly)), cutting and treating the holes \(formatDuration(cutOnly)), PNG encoding both images \(formatDuration(encodeOnly))"
        )
        // The peer: Cairo's PNG writer (libpng and zlib at their defaults), same background.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tactile-bench-\(getpid()).png"
        ).path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let surface = ImageSurface(bitmap: puzzle.background)
        let ours = Stopwatch.timePerCall { blackHole(PNGEncoder.encode(puzzle.background)) }
        var cairoFailed = false
        let cairo = Stopwatch.timePerCall(minimum: 0.5) {
            do { try surface.writePNG(to: scratch) } catch { cairoFailed = true }
        }
        let cairoSize =
            (try? FileManager.default.attributesOfItem(atPath: scratch)[.size] as? Int) ?? 0
        if !cairoFailed {
            output.line(
                "    background PNG: tactile \(formatDuration(ours)) (\(PNGEncoder.encode(puzzle.background).count / 1024) KB), Cairo/libpng \(formatDuration(cairo)) (\(cairoSize / 1024) KB): \(String(format: "%.1f", cairo / ours))× faster"
            )
        }

        // Checks: each on its own puzzle, with a human-like track, against a store of 1,000.
        guard var verifier = PuzzleVerifier(key: [UInt8](repeating: 7, count: 32)) else {
            throw CommandFailure(.negative, "cannot make a verifier")
        }
        verifier.policy.checksPerWindow = .max
        verifier.policy.puzzlesPerWindow = .max
        var ids: [String] = []
        for _ in 0..<1000 {
            do { ids.append(try verifier.register(puzzle, client: "bench", now: 0).id) } catch {
                throw CommandFailure(.negative, "the benchmark was refused a puzzle")
            }
        }
        let track = humanTrack(to: puzzle.holePosition, from: puzzle.startPosition)
        var passes = 0
        let watch = Stopwatch()
        for id in ids {
            let attempt = PuzzleAttempt(
                position: puzzle.holePosition, displayWidth: 640, track: track)
            if case .passed = verifier.check(id: id, attempt: attempt, client: "bench", now: 1) {
                passes += 1
            }
        }
        let checkTime = watch.elapsed / Double(ids.count)
        guard passes == ids.count else {
            throw CommandFailure(.negative, "only \(passes) of \(ids.count) true answers passed")
        }
        output.line(
            String(
                format: "  check (trajectory rules, HMAC token):    %.0f checks/s (%@)",
                1 / checkTime, formatDuration(checkTime)))

        // The gap finder, with and without the hole treatment.
        let trials = 100
        for (name, treatment) in [("plain hole", HoleTreatment.plain), ("treated hole", .standard)]
        {
            var hits = 0
            var solverRandom = SeededRandom(seed: 2024)
            for trial in 0..<trials {
                let picture = ProceduralPicture.make(
                    width: 640, height: 360, seed: 10_000 + UInt64(trial))
                var trialOptions = options
                trialOptions.treatment = treatment
                let p = try generate(picture, trialOptions, &solverRandom)
                let guess = GapFinder.locate(
                    background: p.background, piece: p.piece, axis: .horizontal,
                    fixed: Int(p.startPosition.y))
                if abs(guess.x - p.holePosition.x) <= 8 { hits += 1 }
            }
            output.line(
                "  gap finder (Canny-style edges + template matching), \(name): \(hits) of \(trials) solved within 8 px"
            )
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

    /// Generates a puzzle and PNG-encodes its two images: the files' sizes in bytes.
    static func encodedSizes(
        _ picture: Bitmap, _ options: PuzzleOptions, _ encoder: PNGEncoder,
        _ random: inout SeededRandom
    ) throws(CommandFailure) -> (background: Int, piece: Int) {
        let puzzle = try generate(picture, options, &random)
        return (encoder.encode(puzzle.background).count, encoder.encode(puzzle.piece).count)
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

    /// A drag that eases in and out over 0.9 s at 60 samples a second, wobbling across.
    static func humanTrack(to end: Point, from start: Point) -> [PuzzleTrackPoint] {
        (0...54).map { i in
            let u = Double(i) / 54
            let s = u * u * u * (10 - 15 * u + 6 * u * u)
            return PuzzleTrackPoint(
                x: start.x + (end.x - start.x) * s, y: start.y + 1.5 * sin(Double(i) * 0.4),
                time: u * 0.9)
        }
    }
}
