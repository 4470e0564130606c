import TactileCairo
import TactileCore
import TactilePuzzle
import TactilePuzzleImaging
import TactilePuzzleVerifier

/// Where a trial's pictures come from.
public enum TrialPictures: Sendable {
    /// `ProceduralPicture`s, one seed per puzzle.
    case drawn
    /// Photographs, cycled through with a random zoom, crop and mirror per puzzle.
    case photos(PhotoSet)

    /// `drawn` or `photos`, for tables.
    public var name: String {
        switch self {
        case .drawn: "drawn"
        case .photos: "photos"
        }
    }
}

/// How solvers fare against a generator: puzzles made with the same options, handed to each
/// solver exactly as a client gets them (encoded, then decoded), and the hits counted by the
/// verifier's position rule.
///
/// Puzzle `k` takes its picture and its random choices from seed `seed + k`, so two trials
/// with different options meet the same pictures and the same hole positions.
public struct SolverTrial: Sendable {
    /// The generator's options.
    public var options: PuzzleOptions
    /// The pictures.
    public var pictures: TrialPictures
    /// How many puzzles.
    public var puzzles: Int
    /// The first puzzle's seed.
    public var seed: UInt64

    /// Creates a trial.
    public init(options: PuzzleOptions, pictures: TrialPictures, puzzles: Int, seed: UInt64 = 1) {
        self.options = options
        self.pictures = pictures
        self.puzzles = puzzles
        self.seed = seed
    }

    /// What a trial found.
    public struct Outcome: Sendable {
        /// Puzzles each solver found the hole of, in the order the solvers were given.
        public var hits: [Int]
        /// Puzzles tried.
        public var puzzles: Int
        /// The background files' bytes, summed.
        public var backgroundBytes: Int
        /// The piece files' bytes, summed.
        public var pieceBytes: Int

        /// Solver `index`'s hits as a share of the puzzles, 0…1.
        public func rate(_ index: Int) -> Double {
            puzzles > 0 ? Double(hits[index]) / Double(puzzles) : 0
        }
    }

    /// Puzzle `k` of the trial, as generated (the answer included).
    public func puzzle(_ k: Int) throws(PuzzleGenerationError) -> GeneratedPuzzle {
        var random = SeededRandom(seed: seed &+ UInt64(k))
        let picture: Bitmap
        switch pictures {
        case .drawn:
            picture = ProceduralPicture.make(
                width: options.width, height: options.height, seed: random.next())
        case .photos(let set):
            picture = set.picture(
                k, width: options.width, height: options.height, using: &random)
        }
        return try PuzzleGenerator.generate(picture: picture, options: options, using: &random)
    }

    /// What a client gets of a generated puzzle: its files decoded, its challenge's axis and
    /// fixed coordinate (the piece's start row or column, as the verifier issues it).
    public static func clientView(
        of puzzle: GeneratedPuzzle, files: EncodedPuzzleImages
    ) throws(ImageFileError) -> ClientPuzzle {
        let challenge = PuzzleChallenge(
            id: "trial", imageWidth: puzzle.background.width,
            imageHeight: puzzle.background.height, pieceWidth: puzzle.piece.width,
            pieceHeight: puzzle.piece.height, axis: puzzle.axis,
            pieceX: puzzle.axis == .vertical ? Int(puzzle.startPosition.x) : nil,
            pieceY: puzzle.axis == .horizontal ? Int(puzzle.startPosition.y) : nil,
            shape: puzzle.shape.name, expiresAt: 0)
        return try ClientPuzzle(
            backgroundFile: files.background, pieceFile: files.piece, challenge: challenge)
    }

    /// Runs every solver on every puzzle.
    ///
    /// - Throws: `PuzzleGenerationError` for options that cannot make a puzzle, or
    ///   `ImageFileError` if an encoded image does not decode (a bug).
    public func run(_ solvers: [any PuzzleSolver]) throws -> Outcome {
        let encoder = PuzzleImageEncoder()
        var outcome = Outcome(
            hits: Array(repeating: 0, count: solvers.count), puzzles: 0, backgroundBytes: 0,
            pieceBytes: 0)
        for k in 0..<puzzles {
            let puzzle = try puzzle(k)
            let files = encoder.encode(puzzle)
            let view = try Self.clientView(of: puzzle, files: files)
            for (index, solver) in solvers.enumerated()
            where solver.finds(puzzle.holePosition, in: view) {
                outcome.hits[index] += 1
            }
            outcome.puzzles += 1
            outcome.backgroundBytes += files.background.count
            outcome.pieceBytes += files.piece.count
        }
        return outcome
    }
}
