import CGtk
import Foundation
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
        // Non-unique: several showcases (and test runs) may be open at once.
        let app = gtk_application_new(identifier, G_APPLICATION_NON_UNIQUE)!
        defer { g_object_unref(app) }
        let gApp = tactile_g_application(app)
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
        let stack = gtk_stack_new()!
        gtk_stack_set_transition_type(tactile_stack(stack), GTK_STACK_TRANSITION_TYPE_CROSSFADE)
        gtk_widget_set_hexpand(stack, 1)
        var built: [String: Widget] = [:]
        for page in pages {
            let root = page.build()
            built[page.name] = root
            gtk_stack_add_titled(tactile_stack(stack), root.widget, page.name, page.title)
        }
        if let initialPage { gtk_stack_set_visible_child_name(tactile_stack(stack), initialPage) }

        let sidebar = gtk_stack_sidebar_new()!
        gtk_stack_sidebar_set_stack(tactile_stack_sidebar(sidebar), tactile_stack(stack))
        gtk_widget_set_size_request(sidebar, 180, -1)

        let layout = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_box_append(tactile_box(layout), sidebar)
        gtk_box_append(tactile_box(layout), gtk_separator_new(GTK_ORIENTATION_VERTICAL))
        gtk_box_append(tactile_box(layout), stack)

        let window = tactile_window(gtk_application_window_new(app))
        gtk_window_set_title(window, title)
        gtk_window_set_default_size(window, 1100, 720)
        gtk_window_set_child(window, layout)
        gtk_window_present(window)
        // The first page's component takes the keys at launch (Space plays, digits pull, …).
        (built[initialPage ?? pages.first?.name ?? ""]?.preferredFocus)?.grabFocus()
    }
}

/// Writes one line to standard error.
private func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
