import TactileCore
import Testing

@testable import TactileHanoi

/// Layout fits any view and any number of disks, and moving disks never pass through others.
@Suite struct HanoiLayoutTests {
    static let sizes = [
        Size(width: 1280, height: 800), Size(width: 320, height: 640), Size(width: 40, height: 30),
        Size(width: 1, height: 1), Size(width: 0, height: -5), Size(width: 5000, height: 90),
    ]

    @Test(arguments: sizes)
    func sizesArePositiveForEveryDiskCount(size: Size) {
        for pegs in [3, 4, 7] {
            for disks in 1...64 {
                let layout = HanoiLayout(viewSize: size, disks: disks, pegs: pegs)
                #expect(layout.diskHeight > 0 && layout.rodWidth > 0 && layout.baseHeight > 0)
                #expect(layout.minimumDiskWidth > 0)
                #expect(layout.maximumDiskWidth >= layout.minimumDiskWidth)
                for d in 1...disks {
                    #expect(layout.width(ofDisk: d) > 0)
                    if d > 1 { #expect(layout.width(ofDisk: d) > layout.width(ofDisk: d - 1)) }
                }
                // A full stack on the first and last peg stays inside the view.
                let view = Rect(origin: .zero, size: layout.viewSize).insetBy(dx: -1e-9, dy: -1e-9)
                for peg in [0, pegs - 1] {
                    #expect(view.contains(layout.frame(ofDisk: disks, onPeg: peg, level: 0)))
                    #expect(view.contains(layout.frame(ofDisk: 1, onPeg: peg, level: disks - 1)))
                    #expect(view.contains(layout.rod(ofPeg: peg)))
                }
            }
        }
    }

    @Test func orientationFollowsTheView() {
        #expect(
            HanoiLayout(viewSize: Size(width: 800, height: 600), disks: 5, pegs: 3).arrangement
                == .sideBySide)
        #expect(
            HanoiLayout(viewSize: Size(width: 400, height: 800), disks: 5, pegs: 3).arrangement
                == .stacked)
        // The page at the default 1,100 × 720 window: a little taller than wide, still a row
        // of pegs (stacked, they took only the left half of the canvas).
        #expect(
            HanoiLayout(viewSize: Size(width: 553, height: 625), disks: 5, pegs: 3).arrangement
                == .sideBySide)
        #expect(
            HanoiLayout(viewSize: Size(width: 500, height: 700), disks: 5, pegs: 3).arrangement
                == .sideBySide)
        #expect(
            HanoiLayout(viewSize: Size(width: 500, height: 701), disks: 5, pegs: 3).arrangement
                == .stacked)
    }

    @Test func diskHeightIsCapped() {
        let layout = HanoiLayout(viewSize: Size(width: 2000, height: 2000 * 0.9), disks: 2, pegs: 3)
        #expect(layout.diskHeight == HanoiLayout.maximumDiskHeight)
    }

    @Test(arguments: [Size(width: 900, height: 500), Size(width: 360, height: 700)])
    func movingDisksNeverOverlapRestingDisks(size: Size) throws {
        let plan = try HanoiSolver.plan(disks: 5, pegs: 3)
        let layout = HanoiLayout(viewSize: size, disks: 5, pegs: 3)
        var position = plan.start
        plan.forEachMove { move in
            let path = layout.travelPath(
                of: move, fromLevel: position.disks(on: move.from).count - 1,
                toLevel: position.disks(on: move.to).count)
            for step in 0...200 {
                let center = point(along: path, fraction: Double(step) / 200)
                let moving = Rect(
                    center: center,
                    size: Size(width: layout.width(ofDisk: move.disk), height: layout.diskHeight)
                )
                .insetBy(dx: 0.01, dy: 0.01)
                for peg in 0..<3 {
                    for (level, disk) in position.disks(on: peg).enumerated()
                    where disk != move.disk {
                        let other = layout.frame(ofDisk: disk, onPeg: peg, level: level)
                        #expect(!moving.intersects(other), "\(move) passes through disk \(disk)")
                    }
                }
            }
            position = position.applying(move)
        }
    }

    @Test func pegsArePickedByTheirArea() {
        let side = HanoiLayout(viewSize: Size(width: 900, height: 500), disks: 5, pegs: 3)
        #expect(side.peg(at: Point(x: 10, y: 10)) == 0)
        #expect(side.peg(at: Point(x: 450, y: 490)) == 1)
        #expect(side.peg(at: Point(x: 899, y: 250)) == 2)
        #expect(side.peg(at: Point(x: -1, y: 250)) == nil)
        #expect(side.peg(at: Point(x: .nan, y: 250)) == nil)
        let stacked = HanoiLayout(viewSize: Size(width: 300, height: 900), disks: 5, pegs: 3)
        #expect(stacked.peg(at: Point(x: 50, y: 10)) == 0)
        #expect(stacked.peg(at: Point(x: 50, y: 890)) == 2)
    }
}

/// Peg letters are inside the view, rows of pegs are centred, and many pegs still draw
/// legible disks.
@Suite struct HanoiLayoutFitTests {
    /// Views from a phone's width to a wide window, tall, square and flat.
    static let sizes: [Size] = [200, 320, 360, 523, 800, 1280].flatMap { width in
        [0.5, 0.8, 1.09, 1.5, 2, 3].map { Size(width: width, height: (width * $0).rounded()) }
    }

    @Test(arguments: sizes)
    func everyPegLetterLiesInsideTheViewAndUnderItsOwnBase(size: Size) {
        let view = Rect(origin: .zero, size: size).insetBy(dx: -1e-9, dy: -1e-9)
        for pegs in [3, 4, 5, 7, 10, 16, 26] {
            for disks in [1, 5, 12, 64] {
                let layout = HanoiLayout(viewSize: size, disks: disks, pegs: pegs)
                for peg in 0..<pegs {
                    guard let label = layout.labelFrame(ofPeg: peg) else {
                        // Only a view too small to spare a fifth of a row goes without letters.
                        #expect(
                            size.height / Double(layout.rows) < 80,
                            "\(size) \(pegs) pegs: no letter for \(peg)")
                        continue
                    }
                    #expect(view.contains(label), "\(size), \(pegs) pegs, \(disks) disks: \(peg)")
                    let base = layout.base(ofPeg: peg)
                    #expect(label.minY >= base.maxY && abs(label.midX - base.midX) < 1e-9)
                    for other in 0..<pegs where other != peg {
                        #expect(!label.intersects(layout.base(ofPeg: other)))
                        #expect(!label.intersects(layout.rod(ofPeg: other)))
                        #expect(
                            !label.intersects(layout.frame(ofDisk: disks, onPeg: other, level: 0)))
                    }
                }
            }
        }
    }

    @Test(arguments: sizes)
    func thePegsAreCentredInTheView(size: Size) {
        for pegs in [3, 4, 10, 26] {
            let layout = HanoiLayout(viewSize: size, disks: 5, pegs: pegs)
            let bases = (0..<pegs).map { layout.base(ofPeg: $0) }
            let left = bases.map(\.minX).min()!
            let right = bases.map(\.maxX).max()!
            #expect(abs(left - (size.width - right)) < 1e-6, "\(size), \(pegs) pegs")
            let top = (0..<pegs).map { layout.rod(ofPeg: $0).minY }.min()!
            let bottom = bases.map(\.maxY).max()!
            #expect(top >= 0 && bottom <= size.height)
        }
    }

    @Test func aTallViewStacksThePegsInOneCentredColumn() {
        let layout = HanoiLayout(viewSize: Size(width: 360, height: 700), disks: 5, pegs: 3)
        #expect(layout.arrangement == .stacked)
        #expect(layout.columns == 1 && layout.rows == 3)
        for peg in 0..<3 {
            #expect(abs(layout.base(ofPeg: peg).midX - 180) < 1e-9)
            #expect(layout.labelFrame(ofPeg: peg) != nil)
        }
    }

    /// Ten pegs in a 520 × 700 view went to two columns of five: the disks were as large as
    /// with three columns (1 % larger in area), but the bases spanned 44 % of the width and the
    /// rest was empty. Of rows that draw disks nearly as large, the wider is chosen: three
    /// columns, 59 %.
    @Test(arguments: [Size(width: 520, height: 700), Size(width: 400, height: 800)])
    func tenPegsInATallViewUseItsWidth(size: Size) {
        let layout = HanoiLayout(viewSize: size, disks: 5, pegs: 10)
        let bases = (0..<10).map { layout.base(ofPeg: $0) }
        let span = bases.map(\.maxX).max()! - bases.map(\.minX).min()!
        #expect(span > 0.5 * size.width, "\(size): \(layout.columns) columns span \(span)")
        #expect(layout.diskHeight >= 14 && layout.maximumDiskWidth >= 45)
    }

    /// Ten pegs in a 400 × 800 view were ten thin rows (disks 9.6 points high), and one row
    /// gives disks 26 to 34 points wide in the tall views here; rows of several pegs give
    /// disks both height and width.
    @Test(arguments: [
        Size(width: 400, height: 800), Size(width: 523, height: 568),
        Size(width: 776, height: 400), Size(width: 300, height: 900),
    ])
    func tenPegsKeepTheirDisksLegible(size: Size) {
        let layout = HanoiLayout(viewSize: size, disks: 5, pegs: 10)
        #expect(layout.diskHeight >= 14, "\(size): \(layout.diskHeight)")
        #expect(layout.maximumDiskWidth >= 45, "\(size): \(layout.maximumDiskWidth)")
        for peg in 0..<10 { #expect(layout.labelFrame(ofPeg: peg) != nil) }
    }

    @Test(arguments: [
        (Size(width: 400, height: 800), 10), (Size(width: 523, height: 568), 10),
        (Size(width: 300, height: 900), 4), (Size(width: 360, height: 700), 3),
        (Size(width: 640, height: 480), 7),
    ])
    func disksTravelInsideTheViewAndNeverThroughOthers(size: Size, pegs: Int) throws {
        let plan = try HanoiSolver.plan(disks: 4, pegs: pegs)
        let layout = HanoiLayout(viewSize: size, disks: 4, pegs: pegs)
        let view = Rect(origin: .zero, size: size).insetBy(dx: -1e-9, dy: -1e-9)
        var position = plan.start
        plan.forEachMove { move in
            let path = layout.travelPath(
                of: move, fromLevel: position.disks(on: move.from).count - 1,
                toLevel: position.disks(on: move.to).count)
            for step in 0...100 {
                let center = point(along: path, fraction: Double(step) / 100)
                let moving = Rect(
                    center: center,
                    size: Size(width: layout.width(ofDisk: move.disk), height: layout.diskHeight)
                )
                #expect(view.contains(moving), "\(move) leaves the view")
                let inner = moving.insetBy(dx: 0.01, dy: 0.01)
                for peg in 0..<pegs {
                    for (level, disk) in position.disks(on: peg).enumerated()
                    where disk != move.disk {
                        let other = layout.frame(ofDisk: disk, onPeg: peg, level: level)
                        #expect(!inner.intersects(other), "\(move) passes through disk \(disk)")
                    }
                    if peg != move.from && peg != move.to {
                        #expect(
                            !inner.intersects(layout.rod(ofPeg: peg)), "\(move) hits rod \(peg)")
                    }
                    if let label = layout.labelFrame(ofPeg: peg) {
                        #expect(!inner.intersects(label), "\(move) crosses letter \(peg)")
                    }
                }
            }
            position = position.applying(move)
        }
    }
}
