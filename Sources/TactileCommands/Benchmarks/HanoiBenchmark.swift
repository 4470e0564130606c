import Foundation
import TactileCairo
import TactileCore
import TactileHanoi

/// `tactile bench hanoi`: move generation against the textbook recursion, seeking, drawing.
enum HanoiBenchmark {
    /// The textbook recursive solution, visiting every move; the peer in the same run.
    static func recursiveMoves(
        _ n: Int, from: Int, to: Int, via: Int, _ visit: (HanoiMove) -> Void
    ) {
        guard n > 0 else { return }
        recursiveMoves(n - 1, from: from, to: via, via: to, visit)
        visit(HanoiMove(disk: n, from: from, to: to))
        recursiveMoves(n - 1, from: via, to: to, via: from, visit)
    }

    /// A checksum of every move, so that generating them cannot be optimised away.
    @inline(__always)
    static func mix(_ sum: inout UInt64, _ move: HanoiMove) {
        sum = sum &* 31 &+ UInt64(truncatingIfNeeded: move.disk &<< 4 | move.from &<< 2 | move.to)
    }

    static func run(output: CommandOutput) throws(CommandFailure) {
        #if DEBUG
            output.line("warning: this is a debug build; run `swift run -c release tactile bench hanoi` for real figures")
        #endif
        let disks = 30
        let plan: HanoiPlan
        do { plan = try HanoiSolver.plan(disks: disks) } catch { throw .usage(error.message) }
        output.line("Tower of Hanoi — \(disks) disks, \(plan.count) moves, each generated and checksummed")

        var direct: UInt64 = 0
        let directWatch = Stopwatch()
        plan.forEachMove { mix(&direct, $0) }
        let directTime = directWatch.elapsed

        var recursive: UInt64 = 0
        let recursiveWatch = Stopwatch()
        recursiveMoves(disks, from: 0, to: 2, via: 1) { mix(&recursive, $0) }
        let recursiveTime = recursiveWatch.elapsed
        guard direct == recursive else {
            throw CommandFailure(.negative, "the two generators disagree (checksums \(direct) and \(recursive))")
        }
        let directRate = Double(plan.count) / directTime
        let recursiveRate = Double(plan.count) / recursiveTime
        output.line(String(format: "  tactile moves:        %.3g moves/s (%@ total)", directRate, formatDuration(directTime)))
        output.line(String(format: "  textbook recursion:   %.3g moves/s (%@ total)", recursiveRate, formatDuration(recursiveTime)))
        output.line(String(format: "  ratio:                %.1f× the recursion   (target ≥ 10×; ≥ 1e9 moves/s)", directRate / recursiveRate))

        let big: HanoiPlan
        do { big = try HanoiSolver.plan(disks: 64) } catch { throw .usage(error.message) }
        var generator = SystemRandomNumberGenerator()
        let targets = (0..<4096).map { _ in UInt64.random(in: 1...big.count, using: &generator) }
        var index = 0
        let seek = Stopwatch.timePerCall {
            let k = targets[index & 4095]
            index &+= 1
            blackHole(big.position(after: k))
            blackHole(big.move(number: k))
        }
        output.line("Seek, 64 disks: position after move k and move k for random k: \(formatDuration(seek)) (target ≤ 1 µs)")

        let view: HanoiView
        do { view = try HanoiView(disks: 20) } catch { throw .usage(error.message) }
        view.viewSize = Size(width: 1280, height: 800)
        view.setSpeed(.movesPerSecond(3))
        view.play()
        view.advance(to: 0)
        view.advance(to: 0.1)  // a disk in flight
        let surface = ImageSurface(width: 1280, height: 800)
        let canvas = surface.makeCanvas()
        let draw = Stopwatch.timePerCall { view.draw(in: canvas) }
        output.line("Frame draw, 20 disks at 1280×800 (Cairo image surface): \(formatDuration(draw)) (target ≤ 2 ms)")
    }
}
