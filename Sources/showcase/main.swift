import Foundation
import TactileGTK

installTranslations()

// A server without a site key could only be refused: say so before opening a window.
let arguments = CommandLine.arguments
if arguments.contains(where: { $0 == "--captcha-server" || $0.hasPrefix("--captcha-server=") }),
    !arguments.contains(where: { $0 == "--captcha-sitekey" || $0.hasPrefix("--captcha-sitekey=") })
{
    FileHandle.standardError.write(
        Data(
            "showcase: --captcha-server needs --captcha-sitekey KEY (tactile puzzle serve prints it)\n"
                .utf8))
    exit(2)
}
// Without a GPU, GTK's OpenGL renderer draws on the CPU at many times the Cairo renderer's cost.
RendererPreference.apply()
let app = ShowcaseApplication()
registerPages(in: app)
exit(app.run())
