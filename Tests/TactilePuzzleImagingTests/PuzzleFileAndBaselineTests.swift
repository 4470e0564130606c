import Foundation
import PuzzleTestSupport
import TactileCairo
import TactileCore
import TactilePuzzle
import TactilePuzzleImaging
import TactilePuzzleSolvers
import Testing

/// The PNG encoder the images go out through, read back by an independent decoder; and an
/// honest gap finder on untreated holes (the baseline the treatments are measured against).
@Suite struct PuzzleFileAndBaselineTests {
    func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("puzzle-\(UUID())").path
    }

    @Test func pngRoundTripsThroughAnIndependentDecoder() throws {
        let puzzle = try makePuzzle(seed: 32)
        let directory = temporaryDirectory()
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var tiny = Bitmap(width: 3, height: 2, fill: Color(red: 1, green: 0, blue: 0, alpha: 0.5))
        tiny[1, 1] = .clear
        for (name, bitmap) in [
            ("background", puzzle.background), ("piece", puzzle.piece), ("tiny", tiny),
        ] {
            let path = directory + "/\(name).png"
            try Data(PNGEncoder.encode(bitmap)).write(to: URL(fileURLWithPath: path))
            #expect(try ImageLoader.load(path: path) == bitmap, "\(name)")
        }
    }

    @Test func gapFinderSolvesUntreatedHoles() throws {
        // An honest solver: with a plain hole, it should nearly always succeed.
        var hits = 0
        for seed in 40..<44 as Range<UInt64> {
            let p = try makePuzzle(seed: seed, treatment: .plain, decoys: 1)
            let guess = GapFinder.locate(
                background: p.background, piece: p.piece, axis: .horizontal,
                fixed: Int(p.startPosition.y))
            if abs(guess.x - p.holePosition.x) <= 8 { hits += 1 }
        }
        #expect(hits >= 3)
    }
}
