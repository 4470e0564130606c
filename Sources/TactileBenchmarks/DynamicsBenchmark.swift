import Foundation
import TactileCommands
import TactileCore
import TactileCradle
import TactileDynamics

/// `tactile bench dynamics`: the cradle, ball pits and a box pyramid, against Chipmunk2D and
/// Box2D 2.4 running the same scenes in the same invocation.
///
/// The peers are small C and C++ programs that `scripts/bench.sh` compiles; it passes their
/// folder in `TACTILE_BENCH_PEERS`. Without them the table shows our figures alone.
enum DynamicsBenchmark {
    /// One scene: its name, what a step is, and how to time ours.
    struct Scene {
        var name: String
        var peerName: String
        var unit: String
        var measure: () throws(CommandFailure) -> (seconds: Double, note: String)
    }

    /// The scenes' shared definitions (the peer programs build the same ones).
    enum Layout {
        static let pitWidth = 800.0
        static let pitFloor = 1600.0
        static let pitSpacing = 17.0
        static let pyramidRows = 20
        static let boxSize = 20.0
        /// The large scenes: a pit of 10,000 balls, a pyramid of 100 rows (5,050 boxes) and
        /// 20 pyramids of 10 rows side by side, with 20 points between their bases.
        static let largePit = 10000
        static let largePyramidRows = 100
        static let manyPyramids = 20
        static let manyPyramidRows = 10
        static let pyramidGap = 20.0
        static let frames = 120
        static let frame = 1.0 / 60

        /// Radii 4…8 points from a small linear congruential generator the peers share.
        static func radii(_ count: Int) -> [Double] {
            var state: UInt32 = 12345
            return (0..<count).map { _ in
                state = state &* 1_103_515_245 &+ 12345
                return 4 + 4 * Double((state >> 8) & 0xFFFF) / 65535
            }
        }

        /// Grid positions (y down): 46 columns 17 points apart, rows upwards from the floor.
        static func pitCenter(_ i: Int) -> Point {
            let columns = Int(pitWidth / pitSpacing) - 1
            return Point(
                x: 17 + Double(i % columns) * pitSpacing,
                y: pitFloor - 10 - Double(i / columns) * pitSpacing)
        }

        /// The height of a pit's box: 3,000 points, or the peers' 4,000 when the balls reach
        /// higher.
        static func pitHeight(_ count: Int) -> Double {
            pitCenter(count - 1).y < pitFloor - 2990 ? 4000 : 3000
        }

        /// Centres (y down) of `count` pyramids of `rows` rows standing on `floor`, side by
        /// side around x = 400: row by row from the bottom, pyramid by pyramid.
        static func pyramidCenters(count: Int, rows: Int, floor: Double) -> [Point] {
            let pitch = Double(rows) * (boxSize + 1) + pyramidGap
            var centers: [Point] = []
            for pyramid in 0..<count {
                let middle = 400 + (Double(pyramid) - Double(count - 1) / 2) * pitch
                for row in 0..<rows {
                    for column in 0..<(rows - row) {
                        centers.append(
                            Point(
                                x: middle + (Double(column) - Double(rows - row - 1) / 2)
                                    * (boxSize + 1),
                                y: floor - boxSize / 2 - Double(row) * boxSize))
                    }
                }
            }
            return centers
        }
    }

    /// Whether the large scenes run too: `TACTILE_BENCH_LARGE` set, and not to 0
    /// (`scripts/bench.sh` sets it; the test run's pass over every suite does not).
    static var runsLargeScenes: Bool {
        let value = ProcessInfo.processInfo.environment["TACTILE_BENCH_LARGE"] ?? ""
        return !value.isEmpty && value != "0"
    }

    /// The scenes to run, when `TACTILE_BENCH_SCENES` names some (comma-separated, as the notes
    /// name them: `pyramid,pit1000`; `drag` for the dragged pit), to time or profile a few
    /// alone; nil runs them all.
    static var sceneFilter: Set<String>? {
        let value = ProcessInfo.processInfo.environment["TACTILE_BENCH_SCENES"] ?? ""
        guard !value.isEmpty else { return nil }
        return Set(value.split(separator: ",").map { String($0) })
    }

    /// How many times every scene runs on every engine.
    static let rounds = 3

    static func run(output: CommandOutput) throws(CommandFailure) {
        var peers = PeerRunner(
            directory: ProcessInfo.processInfo.environment["TACTILE_BENCH_PEERS"])
        var scenes = [
            Scene(name: "cradle, 5 balls (per 1/600 s step)", peerName: "cradle", unit: "step") {
                () throws(CommandFailure) in try cradle()
            },
            Scene(name: "ball pit, 1,000 circles (per 1/60 s)", peerName: "pit1000", unit: "frame")
            {
                () throws(CommandFailure) in try pit(1000)
            },
            Scene(name: "ball pit, 4,000 circles (per 1/60 s)", peerName: "pit4000", unit: "frame")
            {
                () throws(CommandFailure) in try pit(4000)
            },
            Scene(name: "pyramid, 20 rows (per 1/60 s)", peerName: "pyramid", unit: "frame") {
                () throws(CommandFailure) in try pyramids(count: 1, rows: Layout.pyramidRows)
            },
        ]
        if runsLargeScenes {
            scenes += [
                Scene(
                    name: "ball pit, 10,000 circles (per 1/60 s)", peerName: "pit10000",
                    unit: "frame"
                ) {
                    () throws(CommandFailure) in try pit(Layout.largePit)
                },
                Scene(
                    name: "pyramid, 100 rows (per 1/60 s)", peerName: "pyramid100", unit: "frame"
                ) {
                    () throws(CommandFailure) in
                    try pyramids(count: 1, rows: Layout.largePyramidRows)
                },
                Scene(
                    name: "20 pyramids, 10 rows (per 1/60 s)", peerName: "pyramids", unit: "frame"
                ) {
                    () throws(CommandFailure) in
                    try pyramids(count: Layout.manyPyramids, rows: Layout.manyPyramidRows)
                },
            ]
        }
        if let only = sceneFilter {
            let known = Set(scenes.map(\.peerName) + ["drag"])
            let unknown = only.subtracting(known).sorted()
            guard unknown.isEmpty else {
                throw .usage(
                    "TACTILE_BENCH_SCENES names \(unknown.joined(separator: ", ")), which is no scene; accepted: cradle, pit1000, pit4000, pyramid, drag, and with TACTILE_BENCH_LARGE set pit10000, pyramid100, pyramids"
                )
            }
            scenes = scenes.filter { only.contains($0.peerName) }
        }
        if !scenes.isEmpty { try measure(scenes, with: &peers, output: output) }
        if let only = sceneFilter, !only.contains("drag") { return }
        try measureDraggedPit(output: output)
    }

    /// Times `scenes` on our engine and the peers, round after round, and prints the table
    /// and every engine's checks.
    static func measure(
        _ scenes: [Scene], with peers: inout PeerRunner, output: CommandOutput
    ) throws(CommandFailure) {
        let peerNames = ["chipmunk", "box2d", "box2d-v3"]
        // Rounds of every engine in turn, keeping each one's best time: a busy moment on the
        // machine slows one round, not one engine.
        var results: [String: [String: Double]] = [:]
        var best: [String: Double] = [:]
        var notes: [String: String] = [:]
        for round in 1...rounds {
            BenchCommand.progress("  round \(round) of \(rounds): the peers, then ours")
            for (peer, table) in peers.run(names: peerNames) {
                results[peer, default: [:]].merge(table) { min($0, $1) }
            }
            for scene in scenes {
                let ours = try scene.measure()
                best[scene.peerName] = min(best[scene.peerName] ?? .infinity, ours.seconds)
                notes[scene.peerName] = ours.note
            }
        }
        output.line(
            "Scene                                  tactile     Chipmunk 7   Box2D 2.4.1  Box2D v3     tactile/Chipmunk  tactile/Box2D     tactile/Box2D v3"
        )
        for scene in scenes {
            let ours = (seconds: best[scene.peerName]!, note: notes[scene.peerName]!)
            var row = scene.name.padding(toLength: 38, withPad: " ", startingAt: 0)
            row +=
                " "
                + formatDuration(ours.seconds).padding(toLength: 11, withPad: " ", startingAt: 0)
            var ratios = ""
            for peer in peerNames {
                if let time = results[peer]?[scene.peerName] {
                    row +=
                        " "
                        + formatDuration(time).padding(toLength: 12, withPad: " ", startingAt: 0)
                    ratios +=
                        "  "
                        + String(format: "%.2f×", ours.seconds / time)
                        .padding(toLength: 16, withPad: " ", startingAt: 0)
                } else {
                    row += " " + "—".padding(toLength: 12, withPad: " ", startingAt: 0)
                    ratios += "  " + "—".padding(toLength: 16, withPad: " ", startingAt: 0)
                }
            }
            output.line(row + ratios)
        }
        output.line("")
        output.line("Best of \(rounds) rounds. Our settings and checks (from the last round):")
        for scene in scenes { output.line("  \(scene.peerName): \(notes[scene.peerName]!)") }
        if let problem = peers.problem {
            output.line("")
            output.line(problem)
        }
        if !results.isEmpty {
            output.line(
                "Peers: one step per 1/60 s (the cradle: 1/600 s); Chipmunk with 10 iterations (its spatial hash for the pits); Box2D 2.4 with 8 velocity and 3 position iterations, Box2D v3 with 4 substeps on one thread, both 10 points to the metre, sleeping off. Debian's libchipmunk is built with its runtime assertions on."
            )
            // The same checks on the peers' scenes, so that speed is compared at known quality.
            for (peer, title) in zip(peerNames, ["Chipmunk", "Box2D 2.4", "Box2D v3"]) {
                guard let table = results[peer] else { continue }
                func points(_ key: String) -> String {
                    table[key].map { String(format: "%.2f", $0) } ?? "—"
                }
                output.line(
                    "  \(title) after 2 s: deepest overlap \(points("pit1000.overlap")) points (1,000 balls), \(points("pit4000.overlap")) points (4,000 balls); the most any pyramid box moved \(points("pyramid.moved")) points"
                )
                if runsLargeScenes {
                    output.line(
                        "    large scenes: deepest overlap \(points("pit10000.overlap")) points (10,000 balls); the most any box moved \(points("pyramid100.moved")) points (100 rows), \(points("pyramids.moved")) points (20 pyramids)"
                    )
                }
            }
        }
    }

    /// The dragged pit, in place and recompiling, best of the rounds.
    static func measureDraggedPit(output: CommandOutput) throws(CommandFailure) {
        // A scene dragged by its anchor every frame: parameters changed in place, against
        // the whole world recompiled every frame (what every anchor change used to cost).
        var inPlace = Double.infinity
        var recompiled = Double.infinity
        var dragNote = ""
        BenchCommand.progress("  the pit dragged by its anchor, in place and recompiling")
        for _ in 0..<rounds {
            let fast = try draggedPit(recompilingEachFrame: false)
            inPlace = min(inPlace, fast.seconds)
            dragNote = fast.note
            recompiled = min(recompiled, try draggedPit(recompilingEachFrame: true).seconds)
        }
        output.line("")
        output.line(
            "Dragged by its anchor every frame (1,000-ball pit, a box on a string pulled through it, per 1/60 s):"
        )
        output.line(
            "  changed in place \(formatDuration(inPlace)), recompiling the world each frame \(formatDuration(recompiled)): \(String(format: "%.2f×", inPlace / recompiled)) the time"
        )
        output.line("  \(dragNote)")
        output.line(
            "Targets: cradle ≤ 2.5 µs per step; ball pits and pyramid at or below the faster peer.")
    }

    /// The 1,000-ball pit, settled, with a heavy box hung by a string from an anchor that
    /// sweeps across the pit: the anchor moves every frame, as a drag moves it. With
    /// `recompilingEachFrame`, a behaviour is also added and removed every frame, which makes
    /// the animator compile its whole world again (dropping contacts) — the cost every
    /// parameter change had before parameters changed in place.
    static func draggedPit(recompilingEachFrame: Bool) throws(CommandFailure) -> (
        seconds: Double, note: String
    ) {
        do {
            let animator = try DynamicAnimator(
                referenceBounds: Rect(
                    x: 0, y: Layout.pitFloor - 3000, width: Layout.pitWidth, height: 3000),
                timeStep: sceneStep, positionIterations: dragIterations)
            let radii = Layout.radii(1000)
            var items = try (0..<1000).map { i throws(DynamicsError) in
                try DynamicItem(
                    center: Layout.pitCenter(i),
                    size: Size(width: 2 * radii[i], height: 2 * radii[i]),
                    collisionBoundsType: .ellipse)
            }
            let top = Layout.pitFloor - 300
            let box = try DynamicItem(
                center: Point(x: 100, y: top), size: Size(width: 60, height: 60))
            items.append(box)
            try dropInBox(items, friction: 0.5, animator)
            let string = try AttachmentBehavior(
                item: box, offsetFromCenter: Vector(dx: 0, dy: -30),
                attachedToAnchor: Point(x: 100, y: top - 200))
            try animator.addBehavior(string)
            // Settle first (untimed).
            for frame in 0...120 { animator.advance(to: Double(frame) * Layout.frame) }
            let nudge = DynamicBehavior()
            var total = 0.0
            for frame in 1...Layout.frames {
                let t = 2 + Double(frame) * Layout.frame
                let watch = Stopwatch()
                try string.setAnchorPoint(
                    Point(x: 100 + 600 * Double(frame) / Double(Layout.frames), y: top - 200))
                if recompilingEachFrame {
                    try animator.addBehavior(nudge)
                    animator.removeBehavior(nudge)
                }
                animator.advance(to: t)
                total += watch.elapsed
            }
            return (
                total / Double(Layout.frames),
                "the box travelled \(Int(box.center.x - 100)) points across the pit in 2 s"
            )
        } catch { throw .usage(error.message) }
    }

    // MARK: - Our scenes

    static func cradle() throws(CommandFailure) -> (seconds: Double, note: String) {
        let cradle: NewtonsCradle
        do {
            cradle = try NewtonsCradle()
            try cradle.pull(2, angle: .pi / 6)
        } catch { throw .usage(error.message) }
        let h = cradle.animator.timeStep
        var step = 0
        cradle.advance(to: 0)
        // Frames of 100 steps, so the per-frame work (updating items) is spread as in an app.
        let perFrame = Stopwatch.timePerCall(minimum: 0.5) {
            step += 100
            cradle.advance(to: Double(step) * h)
        }
        let out = cradle.angles.filter { abs($0) > 0.01 }.count
        return (
            perFrame / 100,
            "step 1/600 s, 4 constraint passes; energy now \(String(format: "%.4f", cradle.energyFraction)), \(out) balls away from the vertical"
        )
    }

    /// Our engine's settings for the 1/60 s scenes: four internal steps of 1/240 s, each with
    /// one pass over soft contacts and one relaxing pass after the move (the soft step).
    static let sceneStep = 1.0 / 240
    static let sceneIterations = 1
    static let sceneSoftContacts = true
    /// The dragged pit's: the animator's default rigid contacts, with three passes a step, the
    /// settings its in-place-against-recompiling ratio has been measured with.
    static let dragIterations = 3

    static func pit(_ count: Int) throws(CommandFailure) -> (seconds: Double, note: String) {
        do {
            let height = Layout.pitHeight(count)
            let animator = try DynamicAnimator(
                referenceBounds: Rect(
                    x: 0, y: Layout.pitFloor - height, width: Layout.pitWidth, height: height),
                timeStep: sceneStep, positionIterations: sceneIterations,
                softContacts: sceneSoftContacts)
            let radii = Layout.radii(count)
            let balls = try (0..<count).map { i throws(DynamicsError) in
                try DynamicItem(
                    center: Layout.pitCenter(i),
                    size: Size(width: 2 * radii[i], height: 2 * radii[i]),
                    collisionBoundsType: .ellipse)
            }
            try dropInBox(balls, friction: 0.5, animator)
            let (seconds, timing) = timeFrames(animator)
            let top = balls.map(\.center.y).min()!
            let escaped = balls.filter {
                !($0.center.x > 0 && $0.center.x < Layout.pitWidth && $0.center.y < Layout.pitFloor)
            }.count
            let fastest = balls.map { animator.velocity(of: $0).linear.length }.max()!
            return (
                seconds,
                "\(count) balls: \(settings), \(timing); after 2 s the pile's top is \(Int(Layout.pitFloor - top)) points high, \(escaped) outside the box, deepest overlap \(String(format: "%.2f", deepestOverlap(balls, radii))) points, fastest ball \(String(format: "%.1f", fastest)) points/s"
            )
        } catch { throw .usage(error.message) }
    }

    /// `count` pyramids of `rows` rows on a floor between walls (at x = −200 and 1,000, or
    /// further out where the pyramids need it).
    static func pyramids(count: Int, rows: Int) throws(CommandFailure) -> (
        seconds: Double, note: String
    ) {
        do {
            let floor = 1000.0
            let half = Double(count) * (Double(rows) * (Layout.boxSize + 1) + Layout.pyramidGap) / 2
            let left = min(-200, 400 - half - 100)
            let right = max(1000, 400 + half + 100)
            let height = max(1000, Double(rows) * Layout.boxSize + 200)
            let animator = try DynamicAnimator(
                referenceBounds: Rect(
                    x: left, y: floor - height, width: right - left, height: height),
                timeStep: sceneStep, positionIterations: sceneIterations,
                softContacts: sceneSoftContacts)
            let size = Layout.boxSize
            let boxes = try Layout.pyramidCenters(count: count, rows: rows, floor: floor).map {
                center throws(DynamicsError) in
                try DynamicItem(center: center, size: Size(width: size, height: size))
            }
            try dropInBox(boxes, friction: 0.6, animator)
            let starts = boxes.map(\.center)
            let (seconds, timing) = timeFrames(animator)
            let drift = boxes.last!.center.distance(to: starts.last!)
            let largest = zip(boxes, starts).map { $0.center.distance(to: $1) }.max()!
            // How far boxes sank (y grows downwards) and slid, each the most of any box: a
            // stack of soft contacts sinks by what its springs give under the weight above.
            let sank = zip(boxes, starts).map { $0.center.y - $1.y }.max()!
            let slid = zip(boxes, starts).map { abs($0.center.x - $1.x) }.max()!
            let tilt = boxes.map { abs(remainder($0.rotation, .pi / 2)) }.max()! * 180 / .pi
            // Standing: no box moved more than 2 points or tilted more than 2°.
            let stands = largest <= 2 && tilt <= 2
            let verdict =
                count == 1
                ? "the pyramid \(stands ? "stands" : "does NOT stand")"
                : "the pyramids \(stands ? "stand" : "do NOT stand")"
            return (
                seconds,
                "\(boxes.count) boxes: \(settings), \(timing); in 2 s the top box moved \(String(format: "%.2f", drift)) points, the most any box moved \(String(format: "%.2f", largest)) points (sank \(String(format: "%.2f", sank)), slid sideways \(String(format: "%.2f", slid))), largest tilt \(String(format: "%.2f", tilt))°: \(verdict)"
            )
        } catch { throw .usage(error.message) }
    }

    /// Items that collide with each other and the reference bounds, under gravity, with a
    /// friction: how every 1/60 s scene is set up.
    static func dropInBox(
        _ items: [DynamicItem], friction: Double, _ animator: DynamicAnimator
    ) throws(DynamicsError) {
        let collision = CollisionBehavior(items: items)
        collision.translatesReferenceBoundsIntoBoundary = true
        try animator.addBehavior(collision)
        try animator.addBehavior(GravityBehavior(items: items))
        try animator.addBehavior(
            DynamicItemBehavior(items: items, properties: .init(friction: friction)))
    }

    /// Our settings, as the notes print them.
    static var settings: String {
        let perFrame = Int((Layout.frame / sceneStep).rounded())
        return
            "steps of 1/\(Int((1 / sceneStep).rounded())) s × \(perFrame) per frame, soft contacts, \(sceneIterations) pass and \(sceneIterations) relaxing pass a step"
    }

    /// The deepest overlap between any two balls, by brute force.
    static func deepestOverlap(_ balls: [DynamicItem], _ radii: [Double]) -> Double {
        var deepest = 0.0
        for i in balls.indices {
            for j in balls.indices where j > i {
                let reach = radii[i] + radii[j]
                let dx = balls[j].center.x - balls[i].center.x
                guard abs(dx) < reach else { continue }
                let dy = balls[j].center.y - balls[i].center.y
                let distance = (dx * dx + dy * dy).squareRoot()
                deepest = max(deepest, reach - distance)
            }
        }
        return deepest
    }

    /// Runs 120 frames of 1/60 s and returns seconds per simulated frame. The animator pauses
    /// once everything rests (the peers here never sleep), so frames after a pause are not
    /// counted, and the note says when it paused.
    static func timeFrames(_ animator: DynamicAnimator) -> (seconds: Double, note: String) {
        animator.advance(to: 0)
        var total = 0.0
        var simulated = 0
        for frame in 1...Layout.frames {
            let before = animator.stepCount
            let watch = Stopwatch()
            animator.advance(to: Double(frame) * Layout.frame)
            let elapsed = watch.elapsed
            if animator.stepCount > before {
                total += elapsed
                simulated += 1
            }
        }
        let searches = animator.contactSearches
        let found =
            "contacts found \(searches.all) times in \(animator.stepCount) steps, and around strays \(searches.aroundStrays) times"
        let note =
            animator.isRunning
            ? "simulated all \(Layout.frames) frames, \(found)"
            : "came to rest and paused at \(String(format: "%.2f", animator.elapsedTime)) s, \(found); timed over the \(simulated) frames simulated"
        return (total / Double(max(1, simulated)), note)
    }
}

/// Runs the compiled peer programs and reads their `scene seconds-per-step` lines.
struct PeerRunner {
    var directory: String?
    var problem: String?

    init(directory: String?) {
        self.directory = directory
        if directory == nil {
            problem =
                "No peers: run scripts/bench.sh, which installs Chipmunk2D and Box2D, compiles benchmarks/peers/ and runs this with TACTILE_BENCH_PEERS set."
        }
    }

    /// Adds a problem to report once, however many rounds meet it.
    mutating func note(_ message: String) {
        guard !(problem ?? "").contains(message) else { return }
        problem = (problem.map { $0 + "\n" } ?? "") + message
    }

    mutating func run(names: [String]) -> [String: [String: Double]] {
        guard let directory else { return [:] }
        var results: [String: [String: Double]] = [:]
        for name in names {
            let path = directory + "/" + name + "-bench"
            guard FileManager.default.isExecutableFile(atPath: path) else {
                note(
                    name == "box2d-v3"
                        ? "No Box2D v3: run scripts/bench.sh with BOX2D_V3_SRC set to a checkout of https://github.com/erincatto/box2d (built in a scratch folder, never kept in the tree)."
                        : "Missing peer \(path).")
                continue
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            let pipe = Pipe()
            process.standardOutput = pipe
            do { try process.run() } catch {
                note("Cannot run \(path): \(error)")
                continue
            }
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            var table: [String: Double] = [:]
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                let fields = line.split(separator: " ")
                if fields.count >= 2, let value = Double(fields[1]) {
                    table[String(fields[0])] = value
                }
            }
            results[name] = table
        }
        return results
    }
}
