import Foundation
import PuzzleTestSupport
import TactileCore
import TactilePuzzleImaging
import TactilePuzzleSolvers
import TactilePuzzleVerifier
import TestSupport
import Testing

/// Trials read photos only from files already installed, and make many pictures of a few.
@Suite struct PuzzleTrialPictureTests {
    @Test func aMissingOrEmptyDirectoryGivesNoPhotoSet() throws {
        #expect(PhotoSet(directory: "/nonexistent/photos") == nil)
        let scratch = ScratchDirectory("photos")
        // Too small to cut a puzzle from, and not an image: neither counts.
        try Data(PNGEncoder.encode(Bitmap(width: 100, height: 100, fill: .white))).write(
            to: URL(fileURLWithPath: scratch.file("small.png")))
        try scratch.write("not a picture", to: "notes.png")
        #expect(PhotoSet(directory: scratch.path) == nil)
    }

    @Test func photosAreZoomedCroppedAndMirroredIntoPictures() throws {
        let scratch = ScratchDirectory("photos")
        let photo = ProceduralPicture.make(width: 400, height: 300, seed: 9)
        try Data(PNGEncoder.encode(photo)).write(
            to: URL(fileURLWithPath: scratch.file("landscape.png")))
        let set = try #require(PhotoSet(directory: scratch.path))
        #expect(set.count == 1 && set.names == ["landscape.png"])
        var random = SeededRandom(seed: 1)
        let pictures = (0..<4).map { set.picture($0, width: 640, height: 360, using: &random) }
        #expect(pictures.allSatisfy { $0.width == 640 && $0.height == 360 })
        #expect(Set(pictures.map(\.pixels)).count == 4)
    }
}
