import TactileCairo
import TactileCore

/// Draws a component offscreen at chosen times: a still PNG or an animated GIF.
public struct ComponentRecorder {
    /// The component to draw; it is driven only through the `Component` contract.
    public let component: any Component
    /// The image size in pixels (one point per pixel).
    public let width: Int
    public let height: Int

    /// Creates a recorder and sizes the component to the image.
    public init(component: any Component, width: Int, height: Int) {
        self.component = component
        self.width = width
        self.height = height
        component.viewSize = Size(width: Double(width), height: Double(height))
    }

    /// Draws the component as it is now.
    public func snapshot() -> ImageSurface {
        let surface = ImageSurface(width: width, height: height)
        component.draw(in: surface.makeCanvas())
        return surface
    }

    /// Moves the component to `time` in steps of at most 1/60 s, as a display would.
    public func advance(from start: Double, to time: Double) {
        for t in FrameTimes(from: start, to: time).dropFirst() { component.advance(to: t) }
        component.advance(to: time)
    }

    /// Writes an animated GIF of `seconds` at `framesPerSecond`, starting at time 0.
    public func recordGIF(to path: String, seconds: Double, framesPerSecond: Double = 20)
        throws(ImageFileError)
    {
        let writer = try GIFWriter(path: path, width: width, height: height)
        let frames = max(1, Int((seconds * framesPerSecond).rounded()))
        var time = 0.0
        component.advance(to: 0)
        for frame in 0..<frames {
            let next = Double(frame) / framesPerSecond
            advance(from: time, to: next)
            time = next
            try writer.addFrame(snapshot().bitmap(), delay: 1 / framesPerSecond)
        }
        try writer.finish()
    }
}
