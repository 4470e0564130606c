import Foundation
import TactileCairo
import TactileCommands
import TactileCore
import TactileHanoi

/// `tactile bench hanoi`: move generation against the textbook recursion, seeking, drawing.
enum HanoiBenchmark {
    /// The textbook recursive solution, writing each move into a chunk buffer in the same
    /// packed form as ``HanoiPlan/forEachChunk(_:)``: the peer in the same run.
    struct Recursion {
        let buffer = UnsafeMutablePointer<UInt32>.allocate(capacity: 1 << 16)
        var count = 0
        let consume: (UnsafeBufferPointer<UInt32>) -> Void

        mutating func solve(_ n: Int, from: Int, to: Int, via: Int) {
            guard n > 0 else { return }
            solve(n - 1, from: from, to: via, via: to)
            if count == 1 << 16 { flush() }
            buffer[count] = HanoiMove(disk: n, from: from, to: to).packed
            count += 1
            solve(n - 1, from: via, to: to, via: from)
        }

        mutating func flush() {
            consume(UnsafeBufferPointer(start: buffer, count: count))
            count = 0
        }
    }

    /// What is done with every generated move, the same for both generators: a checksum of
    /// the packed values, so the work cannot be optimised away.
    struct Checksum: Equatable {
        var sum: UInt64 = 0
        var count: UInt64 = 0

        mutating func add(_ chunk: UnsafeBufferPointer<UInt32>) {
            var s: UInt64 = 0
            for v in chunk { s &+= UInt64(v) }
            sum &+= s
            count += UInt64(chunk.count)
        }
    }

    static func run(output: CommandOutput) throws(CommandFailure) {
        let disks = 30
        let plan: HanoiPlan
        do { plan = try HanoiSolver.plan(disks: disks) } catch { throw .usage(error.message) }
        output.line(
            "Tower of Hanoi — \(disks) disks, \(plan.count) moves, each generated into a buffer and checksummed"
        )

        var direct = Checksum()
        let directWatch = Stopwatch()
        plan.forEachChunk { direct.add($0) }
        let directTime = directWatch.elapsed

        var peer = Checksum()
        var recursion = Recursion { peer.add($0) }
        let recursiveWatch = Stopwatch()
        recursion.solve(disks, from: 0, to: 2, via: 1)
        recursion.flush()
        let recursiveTime = recursiveWatch.elapsed
        recursion.buffer.deallocate()

        var single = Checksum()
        var one: UInt64 = 0
        let singleWatch = Stopwatch()
        plan.forEachMove { one &+= UInt64($0.packed) }
        single.sum = one
        single.count = plan.count
        let singleTime = singleWatch.elapsed

        guard direct == peer, direct == single, direct.count == plan.count else {
            throw CommandFailure(
                .negative, "the generators disagree: \(direct), \(peer), \(single)")
        }
        let directRate = Double(plan.count) / directTime
        let recursiveRate = Double(plan.count) / recursiveTime
        let singleRate = Double(plan.count) / singleTime
        output.line(
            String(
                format: "  tactile, in chunks:      %.3g moves/s (%@)", directRate,
                formatDuration(directTime)))
        output.line(
            String(
                format: "  tactile, one at a time:  %.3g moves/s (%@)", singleRate,
                formatDuration(singleTime)))
        output.line(
            String(
                format: "  textbook recursion:      %.3g moves/s (%@)", recursiveRate,
                formatDuration(recursiveTime)))
        output.line(
            String(
                format: "  ratio, chunks / recursion: %.1f×  (targets: ≥ 10×, ≥ 1e9 moves/s)",
                directRate / recursiveRate))

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
        output.line(
            "Seek, 64 disks: position after move k and move k for random k: \(formatDuration(seek)) (target ≤ 1 µs)"
        )

        let view: HanoiView
        do { view = try HanoiView(disks: 20) } catch { throw .usage(error.message) }
        view.viewSize = Size(width: 1280, height: 800)
        view.update { $0.setSpeed(.movesPerSecond(3)) }
        view.update { $0.play() }
        view.advance(to: 0)
        view.advance(to: 0.1)  // a disk in flight
        let surface = ImageSurface(width: 1280, height: 800)
        let canvas = surface.makeCanvas()
        let draw = Stopwatch.timePerCall { view.draw(in: canvas) }
        output.line(
            "Frame draw, 20 disks at 1280×800 (Cairo image surface): \(formatDuration(draw)) (target ≤ 2 ms)"
        )
    }
}
