import Foundation

/// Which of GTK's renderers to ask for before GTK starts.
///
/// GTK draws with OpenGL by default. On a machine without a GPU, Mesa runs that OpenGL on
/// the CPU (llvmpipe), and an animating component then costs far more than with GTK's Cairo
/// renderer: 60–170 % of a core against 11–13 % for the same page, measured on a two-core
/// machine under Xvfb. So when the machine shows no GPU render node, or Mesa is told to draw
/// in software, the Cairo renderer is preferred — unless the person chose a renderer
/// themselves (`GSK_RENDERER`), which is always kept.
public enum RendererPreference {
    /// The renderer to ask for (`"cairo"`), or `nil` to leave GTK's own choice.
    ///
    /// - Parameters:
    ///   - environment: The process environment.
    ///   - renderNodes: The GPU render nodes the machine has (``renderNodes(in:)``).
    public static func preferred(environment: [String: String], renderNodes: [String])
        -> String?
    {
        if let chosen = environment["GSK_RENDERER"], !chosen.isEmpty { return nil }
        let software =
            environment["LIBGL_ALWAYS_SOFTWARE"].map {
                !["", "0", "false"].contains($0.lowercased())
            }
            ?? false
        return software || renderNodes.isEmpty ? "cairo" : nil
    }

    /// The names of the GPU render nodes in `directory` (`renderD128`, …), sorted; none when
    /// the directory is missing or unreadable.
    public static func renderNodes(in directory: String = "/dev/dri") -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasPrefix("renderD") }.sorted()
    }

    /// Sets `GSK_RENDERER` to the ``preferred(environment:renderNodes:)`` renderer, if any;
    /// call before GTK starts. Returns the renderer set.
    @discardableResult
    public static func apply() -> String? {
        guard
            let renderer = preferred(
                environment: ProcessInfo.processInfo.environment, renderNodes: renderNodes())
        else { return nil }
        setenv("GSK_RENDERER", renderer, 0)
        return renderer
    }
}
