import Foundation
import TactileCairo
import TactileCore
import TactileHanoi

/// `tactile render <component> --out FILE.png|FILE.gif [--size WxH] [--seconds S]`.
enum RenderCommand {
    /// The scene makers by component, in the order the help lists them.
    static let scenes: [(name: String, make: @Sendable () throws(CommandFailure) -> Scene)] = [
        ("hanoi", makeHanoiScene),
        ("cradle", CradleScene.make),
        ("pattern", PatternScene.make),
        ("puzzle", PuzzleScene.make),
    ]
    static let components = scenes.map(\.name)

    static let spec = ArgumentParser.Spec(
        usage:
            "tactile render <hanoi|cradle|pattern|puzzle> --out FILE.png|FILE.gif [--size WxH] [--seconds S]",
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
        ],
        details: [
            "A GIF has \(Int(framesPerSecond)) frames a second and at most \(maximumGIFPixelFrames.formatted()) pixels over all",
            "its frames (width × height × frames; 640x400 for 19 s). The file is replaced",
            "atomically and never written through a symbolic link.",
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
        let scene = try makeScene(name)
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

    /// Makes the scene of a component named in ``components``.
    static func makeScene(_ name: String) throws(CommandFailure) -> Scene {
        try scenes.first { $0.name == name }!.make()
    }

    @Sendable static func makeHanoiScene() throws(CommandFailure) -> Scene {
        do {
            let view = try HanoiView(disks: 4)
            view.setSpeed(.movesPerSecond(2.5))
            view.play()
            // 15 moves at 2.5 per second, then a second at rest.
            return Scene(component: view, still: 2.6, length: 7)
        } catch {
            throw .usage(error.message)
        }
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
