import CGtk
import Foundation
import TactileCore
import TactileGTK

/// The showcase desktop app: a window with a sidebar listing pages, one page per component.
///
/// Register pages with ``addPage(name:title:build:)``, then call ``run(_:)``. Pages are
/// built once, when the window opens, in the order added. `--page NAME` on the command
/// line shows that page first.
final class ShowcaseApplication {
    /// The application id, `org.tactile.Showcase` by default.
    let identifier: String
    /// The window title.
    let title: String

    private struct Page {
        let name: String
        let title: String
        let build: () -> Widget
    }
    private var pages: [Page] = []
    private var initialPage: String?

    private struct Option {
        let name: String
        let valueName: String
        let description: String
        let validate: (String) -> String?
    }
    private var options: [Option] = []
    private var values: [String: String] = [:]

    /// Creates the app; nothing touches GTK until ``run(_:)``.
    init(identifier: String = "org.tactile.Showcase", title: String = "Tactile") {
        self.identifier = identifier
        self.title = title
    }

    /// Registers a page.
    ///
    /// - Parameters:
    ///   - name: A short identifier, unique among pages, used by `--page`.
    ///   - title: The text in the sidebar.
    ///   - build: Makes the page's root widget; called once, when the window opens.
    func addPage(name: String, title: String, build: @escaping () -> Widget) {
        precondition(!pages.contains { $0.name == name }, "duplicate page name \(name)")
        pages.append(Page(name: name, title: title, build: build))
    }

    /// Registers a command-line option `--NAME VALUE`, listed in `--help`.
    ///
    /// - Parameters:
    ///   - name: The option's name, without dashes.
    ///   - valueName: What the value is called in `--help`.
    ///   - description: One line for `--help`.
    ///   - validate: A message saying what is wrong with a value (the app then exits 2
    ///     with it), or `nil` when the value is good.
    func addOption(
        name: String, valueName: String, description: String,
        validate: @escaping (String) -> String? = { _ in nil }
    ) {
        options.append(
            Option(name: name, valueName: valueName, description: description, validate: validate))
    }

    /// The value given for an option registered with ``addOption(name:valueName:description:validate:)``,
    /// once the command line is read (pages may ask while they are built).
    func option(_ name: String) -> String? { values[name] }

    /// Runs the app until its window closes and returns the process exit status.
    ///
    /// Without a display it prints why to standard error and returns 1.
    func run(_ arguments: [String] = CommandLine.arguments) -> Int32 {
        // Help needs no display: say it here, where GTK could not.
        if arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }),
            gtk_init_check() == 0
        {
            print(help)
            return 0
        }
        guard gtk_init_check() != 0 else {
            printError(
                "showcase: no display found (set DISPLAY or WAYLAND_DISPLAY, or run under xvfb-run -a)"
            )
            return 1
        }
        // Non-unique: several showcases (and test runs) may be open at once. An AdwApplication
        // sets libadwaita up, with the style (light or dark) following the system's.
        let app = tactile_gtk_application(
            adw_application_new(identifier, G_APPLICATION_NON_UNIQUE))!
        defer { g_object_unref(app) }
        let gApp = tactile_g_application(app)
        addActions(to: app)
        g_application_add_main_option(
            gApp, "page", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_STRING,
            "Show page NAME first (\(pages.map(\.name).joined(separator: ", ")))", "NAME")
        for option in options {
            g_application_add_main_option(
                gApp, option.name, 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_STRING, option.description,
                option.valueName)
        }
        connectLocalOptions(app) { [unowned self] options in self.readOptions(options) }
        connect(app, signal: "activate") { [unowned self] in self.activate(app) }

        var argv = arguments.map { strdup($0) }
        defer { for argument in argv { free(argument) } }
        return g_application_run(gApp, Int32(argv.count), &argv)
    }

    /// The options, as `--help` shows them when there is no display for GTK's own help.
    var help: String {
        var lines = [
            "Usage: showcase [OPTION…]", "", "The Tactile showcase: one page per component.", "",
            "Options:",
            "  --page NAME".padding(toLength: 30, withPad: " ", startingAt: 0)
                + "Show page NAME first (\(pages.map(\.name).joined(separator: ", ")))",
        ]
        for option in options {
            lines.append(
                "  --\(option.name) \(option.valueName)".padding(
                    toLength: 30, withPad: " ", startingAt: 0) + option.description)
        }
        lines += [
            "  -h, --help".padding(toLength: 30, withPad: " ", startingAt: 0) + "Show this help",
            "", "It needs a display (set DISPLAY or WAYLAND_DISPLAY, or run under xvfb-run -a).",
        ]
        return lines.joined(separator: "\n")
    }

    /// Reads `--page` and the registered options; returns -1 to go on, or an exit status.
    private func readOptions(_ dictionary: UnsafeMutablePointer<GVariantDict>?) -> Int32 {
        for option in options {
            guard let value = g_variant_dict_lookup_value(dictionary, option.name, nil) else {
                continue
            }
            let text = String(cString: g_variant_get_string(value, nil))
            g_variant_unref(value)
            if let problem = option.validate(text) {
                printError("showcase: --\(option.name): \(problem)")
                return 2
            }
            values[option.name] = text
        }
        guard let value = g_variant_dict_lookup_value(dictionary, "page", nil) else { return -1 }
        defer { g_variant_unref(value) }
        let name = String(cString: g_variant_get_string(value, nil))
        // Any letter case: `--page Cradle` means the cradle page.
        guard let page = pages.first(where: { $0.name.lowercased() == name.lowercased() }) else {
            let known = pages.map(\.name).joined(separator: ", ")
            printError("showcase: no page named '\(name)' (pages: \(known))")
            return 2
        }
        initialPage = page.name
        return -1
    }

    private func activate(_ app: UnsafeMutablePointer<GtkApplication>) {
        if let window = gtk_application_get_active_window(app) {
            return gtk_window_present(window)
        }
        installIcon()
        let built = pages.map {
            ShowcaseWindow.Page(name: $0.name, title: $0.title, root: $0.build())
        }
        let window = ShowcaseWindow(app: app, title: title, pages: built, initialPage: initialPage)
        gtk_window_present(tactile_window(window.window))
        // The first page's component takes the keys at launch (Space plays, digits pull, …).
        let first = initialPage ?? pages.first?.name
        (built.first { $0.name == first }?.root.preferredFocus)?.grabFocus()
    }

    /// Makes the app's icon findable where it is not installed (run from the build tree: the
    /// repository's `data/icons`), and the windows' icon.
    private func installIcon() {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let folder = executable.deletingLastPathComponent()
        let candidates = [
            folder.appendingPathComponent("../share/icons"),  // an install
            folder.appendingPathComponent("../../../data/icons"),  // .build/TRIPLE/debug
        ]
        if let display = gdk_display_get_default() {
            let theme = gtk_icon_theme_get_for_display(display)
            for directory in candidates
            where FileManager.default.fileExists(atPath: directory.standardized.path) {
                gtk_icon_theme_add_search_path(theme, directory.standardized.path)
            }
        }
        gtk_window_set_default_icon_name(identifier)
    }

    /// Quit (Ctrl+Q), About, and Ctrl+W to close the window; Ctrl+? opens the shortcuts
    /// window GTK gives every application window with a help overlay.
    private func addActions(to app: UnsafeMutablePointer<GtkApplication>) {
        addAction("quit", to: app) { g_application_quit(tactile_g_application(app)) }
        addAction("about", to: app) { [title] in
            let about = adw_about_window_new()!
            let window = OpaquePointer(about)
            adw_about_window_set_application_name(window, title)
            adw_about_window_set_application_icon(window, "org.tactile.Showcase")
            adw_about_window_set_version(window, "0.1.0")
            adw_about_window_set_developer_name(window, Localization.text("The Tactile developers"))
            adw_about_window_set_comments(
                window,
                Localization.text(
                    "Four interactive, animated components — a Tower of Hanoi auto-solver, Newton's cradle on a physics engine, a gesture pattern lock and a puzzle slider captcha — with a platform-neutral Swift core."
                ))
            adw_about_window_set_copyright(window, "© 2026 The Tactile authors")
            // The license's own words, as in LICENSE: GTK's MIT entry would read "See the The
            // MIT License (MIT) for details".
            adw_about_window_set_license_type(window, GTK_LICENSE_CUSTOM)
            adw_about_window_set_license(window, Self.license)
            gtk_window_set_transient_for(
                tactile_window(about), gtk_application_get_active_window(app))
            gtk_window_present(tactile_window(about))
        }
        let accelerators: [(String, String)] = [
            ("app.quit", "<Control>q"), ("window.close", "<Control>w"),
            ("win.show-help-overlay", "<Control>question"),
        ]
        for (action, key) in accelerators {
            key.withCString { pointer in
                var keys: [UnsafePointer<CChar>?] = [pointer, nil]
                gtk_application_set_accels_for_action(app, action, &keys)
            }
        }
    }
}

extension ShowcaseApplication {
    /// The MIT License's terms, as the LICENSE file gives them, for About's Legal page (the
    /// copyright line is About's own, above them).
    static let license = """
        Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated documentation files (the "Software"), to deal in the Software without restriction, including without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the following conditions:

        The above copyright notice and this permission notice shall be included in all copies or substantial portions of the Software.

        THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
        """
}

/// Writes one line to standard error.
private func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
