// SVG path data, as `--shape svg:FILE` reads it, through everything a custom puzzle shape goes
// through: parsing, bounds, flattening, shape and option validation, the piece's mask and, for
// one input in eight, a whole generated puzzle. Errors are expected; a trap is a finding.

import FuzzDriver
import TactileCore
import TactilePuzzle
import TactilePuzzleImaging

@_cdecl("FuzzSVGPath_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    tactile_fuzz_main(argc, argv)
}

/// The picture puzzles are cut from, drawn once.
private let picture = ProceduralPicture.make(width: 160, height: 120, seed: 1)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let text = String(validating: bytes, as: UTF8.self),
        let path = try? Path(svgPathData: text)
    else { return 0 }
    _ = path.bounds
    _ = path.flattened(tolerance: 0.5)
    _ = try? Path(svgPathData: path.svgPathData())

    guard let shape = try? PuzzleShape.svg(text) else { return 0 }
    let options = PuzzleOptions(width: 160, height: 120, shape: shape)
    guard (try? options.validate()) != nil else { return 0 }
    let side = Double(options.resolvedPieceSide)
    let rect = Rect(x: 0, y: 0, width: side, height: side)
    _ = ShapeMask(path: shape.path(in: rect), within: rect)

    // Generating costs far more than the rest; a hash of the input picks which inputs pay.
    let hash = bytes.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 }
    if hash % 8 == 0 {
        var random = SeededRandom(seed: 1)
        _ = try? PuzzleGenerator.generate(picture: picture, options: options, using: &random)
    }
    return 0
}
