import Foundation
import TactileGTK
import Testing

/// Cairo is preferred exactly when OpenGL would run on the CPU, and never over the person's
/// own choice.
@Suite struct RendererPreferenceTests {
    @Test func withoutAGPUCairoIsPreferred() {
        #expect(RendererPreference.preferred(environment: [:], renderNodes: []) == "cairo")
        #expect(
            RendererPreference.preferred(environment: ["GSK_RENDERER": ""], renderNodes: [])
                == "cairo", "an empty choice is no choice")
    }

    @Test func withAGPUGTKChooses() {
        #expect(RendererPreference.preferred(environment: [:], renderNodes: ["renderD128"]) == nil)
        #expect(
            RendererPreference.preferred(
                environment: ["LIBGL_ALWAYS_SOFTWARE": "0"], renderNodes: ["renderD128"]) == nil)
    }

    @Test func softwareOpenGLPrefersCairoEvenWithAGPU() {
        for value in ["1", "true", "yes"] {
            #expect(
                RendererPreference.preferred(
                    environment: ["LIBGL_ALWAYS_SOFTWARE": value], renderNodes: ["renderD128"])
                    == "cairo", "\(value)")
        }
    }

    @Test func thePersonsChoiceIsKept() {
        for chosen in ["gl", "ngl", "vulkan", "cairo"] {
            #expect(
                RendererPreference.preferred(environment: ["GSK_RENDERER": chosen], renderNodes: [])
                    == nil, "\(chosen)")
        }
    }

    @Test func renderNodesAreTheRenderDevicesOnly() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "dri-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["card0", "renderD129", "renderD128", "by-path"] {
            let made = FileManager.default.createFile(
                atPath: folder.appendingPathComponent(name).path, contents: nil)
            #expect(made, "\(name)")
        }
        #expect(RendererPreference.renderNodes(in: folder.path) == ["renderD128", "renderD129"])
        #expect(RendererPreference.renderNodes(in: folder.path + "/missing").isEmpty)
    }
}
