import Foundation
import TactileCairo
import TactileCore
import TactileHanoi

/// `tactile render <component> --out FILE.png|FILE.gif [--size WxH] [--seconds S]`, with
/// options that set up the component (`--disks`, `--balls`, `--pattern`, …).
enum RenderCommand {
    /// A component `render` draws: its name, the options that set it up (which no other
    /// component takes), and how its scene is made from them.
    struct SceneMaker: Sendable {
        var name: String
        var options: [ArgumentParser.Option]
        var make: @Sendable (ArgumentParser.Parsed) throws(CommandFailure) -> Scene
    }

    /// The scene makers by component, in the order the help lists them.
    static let scenes: [SceneMaker] = [
        SceneMaker(name: "hanoi", options: HanoiScene.options, make: HanoiScene.make),
        SceneMaker(name: "cradle", options: CradleScene.options, make: CradleScene.make),
        SceneMaker(name: "pattern", options: PatternScene.options, make: PatternScene.make),
        SceneMaker(name: "puzzle", options: [], make: PuzzleScene.make),
    ]
    static let components = scenes.map(\.name)

    static let spec = ArgumentParser.Spec(
        usage:
            "tactile render <hanoi|cradle|pattern|puzzle> --out FILE.png|FILE.gif [--size WxH] [--seconds S] [--disks N] [--pegs P] [--balls N] [--pull K] [--grid N] [--pattern DOTS]",
        summary: "Draw a component headless: a PNG of one moment, or an animated GIF from time 0.",
        positionals: [("<component>", "Which component: \(components.joined(separator: ", ")).")],
        options: [
            .init(
                name: "out", valueName: "FILE",
                help: "Output file; .png for a still, .gif for an animation."),
            .init(
                name: "size", valueName: "WxH",
                help: "Image size in pixels, each 16…4096. Default 640x400."),
            .init(
                name: "seconds", valueName: "S",
                help: "PNG: the moment drawn; GIF: the length. 0…600."),
        ] + scenes.flatMap(\.options),
        details: [
            "A GIF has \(Int(framesPerSecond)) frames a second and at most \(maximumGIFPixelFrames.formatted()) pixels over all",
            "its frames (width × height × frames; 640x400 for 19 s); a frame with more than 256",
            "colours is dithered. The file is replaced atomically and never written through a",
            "symbolic link.",
            "hanoi plays \(ValueParser.format(HanoiScene.movesPerSecond)) moves a second, faster when that would take over \(Int(HanoiScene.longestSolution)) s (up to",
            "\(Int(HanoiSpeed.range.upperBound).formatted()) a second; a longer solution is shown for its first \(Int(HanoiScene.longestSolution)) s).",
            "Example: tactile render pattern --out pattern.gif --grid 4 --pattern 1-6-11-16-12-8-4",
        ])

    /// GIF frames per second.
    static let framesPerSecond = 20.0
    /// The most pixels a GIF may hold over all its frames: 100 million.
    static let maximumGIFPixelFrames = 100_000_000

    static func run(_ arguments: [String], output: CommandOutput) throws(CommandFailure) {
        let parsed = try ArgumentParser.parse(arguments, spec: spec)
        if parsed.wantsHelp { return output.line(spec.help) }
        let name = try ValueParser.choice(
            parsed.positionals[0], name: "component", from: components)
        guard let out = parsed.option("out") else {
            throw .usage("missing --out FILE.png|FILE.gif")
        }
        let lowered = out.lowercased()
        guard lowered.hasSuffix(".png") || lowered.hasSuffix(".gif") else {
            throw .usage("--out must end in .png or .gif, got \"\(out)\"")
        }
        let (width, height) = try size(parsed.option("size") ?? "640x400")
        let seconds = try parsed.number("seconds", in: 0...600)
        let isGIF = lowered.hasSuffix(".gif")
        let scene = try makeScene(name, options: parsed)
        if isGIF {
            let length = seconds ?? scene.length
            let frames = max(1, Int((length * Self.framesPerSecond).rounded()))
            guard width * height * frames <= Self.maximumGIFPixelFrames else {
                throw .usage(
                    "a \(width)x\(height) GIF of \(ValueParser.format(length)) s has \((width * height * frames).formatted()) pixels over its \(frames) frames; at most \(Self.maximumGIFPixelFrames.formatted()) are allowed (shorten --seconds or shrink --size)"
                )
            }
        }
        let recorder = ComponentRecorder(component: scene.component, width: width, height: height)
        do {
            if isGIF {
                try recorder.recordGIF(
                    to: out, seconds: seconds ?? scene.length, framesPerSecond: Self.framesPerSecond
                )
            } else {
                scene.component.advance(to: 0)
                recorder.advance(from: 0, to: seconds ?? scene.still)
                try recorder.snapshot().writePNG(to: out)
            }
        } catch {
            throw CommandFailure(.usage, "cannot write \(error)")
        }
        output.line(TerminalText.escaped(out))
    }

    /// A component set up for a demonstration, with a good still moment and length.
    struct Scene {
        var component: any Component
        var still: Double
        var length: Double
    }

    /// Makes the scene of a component named in ``components``, set up by its options in
    /// `parsed`; an option of another component is refused, naming the component it is for.
    static func makeScene(_ name: String, options parsed: ArgumentParser.Parsed = .init())
        throws(CommandFailure) -> Scene
    {
        let maker = scenes.first { $0.name == name }!
        for other in scenes where other.name != name {
            if let option = other.options.first(where: { parsed.option($0.name) != nil }) {
                let own = maker.options.map { "--\($0.name)" }
                throw .usage(
                    "--\(option.name) sets up \(other.name), not \(name), which takes \(own.isEmpty ? "no such option" : own.joined(separator: " and "))"
                )
            }
        }
        return try maker.make(parsed)
    }

    static func size(_ text: String) throws(CommandFailure) -> (Int, Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
            throw .usage("--size must be WxH, such as 640x400, got \"\(text)\"")
        }
        guard (16...4096).contains(w), (16...4096).contains(h) else {
            throw .usage("--size width and height must each be 16…4096, got \(w)x\(h)")
        }
        return (w, h)
    }
}
