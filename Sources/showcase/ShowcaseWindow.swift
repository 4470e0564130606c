import CGtk
import Foundation
import TactileCore
import TactileGTK

/// The showcase's window, as GNOME apps are built: a sidebar of pages beside the page shown,
/// each with its header bar, in a leaflet that folds to one pane (with a back button) on a
/// narrow window; messages as toasts; a menu with the keyboard shortcuts, About and Quit.
struct ShowcaseWindow {
    /// A page as the window shows it.
    struct Page {
        let name: String
        let title: String
        let root: Widget
    }

    /// The window's narrowest width, in points: half of a 1,366-point screen, with room.
    static let minimumWidth: Int32 = 360

    let window: UnsafeMutablePointer<GtkWidget>

    /// Builds the window for `app` with `pages`, showing `initialPage` (or the first).
    init(
        app: UnsafeMutablePointer<GtkApplication>, title: String, pages: [Page],
        initialPage: String?
    ) {
        let stack = gtk_stack_new()!
        gtk_stack_set_transition_type(tactile_stack(stack), GTK_STACK_TRANSITION_TYPE_CROSSFADE)
        gtk_widget_set_hexpand(stack, 1)
        gtk_widget_set_vexpand(stack, 1)
        for page in pages {
            // A page scrolls rather than widening the window: the window can be narrow.
            let scroller = gtk_scrolled_window_new()!
            gtk_scrolled_window_set_child(tactile_scrolled_window(scroller), page.root.widget)
            gtk_scrolled_window_set_policy(
                tactile_scrolled_window(scroller), GTK_POLICY_AUTOMATIC, GTK_POLICY_AUTOMATIC)
            gtk_stack_add_titled(tactile_stack(stack), scroller, page.name, page.title)
            if let adapt = page.root.widthChanged {
                let horizontal = gtk_scrolled_window_get_hadjustment(
                    tactile_scrolled_window(scroller))!
                connect(UnsafeMutableRawPointer(horizontal), notify: "page-size") {
                    let width = gtk_adjustment_get_page_size(horizontal)
                    // Not while GTK is allocating: rearranging asks for a new layout.
                    runWhenIdle { adapt(width) }
                }
            }
        }
        if let initialPage { gtk_stack_set_visible_child_name(tactile_stack(stack), initialPage) }

        let leaflet = adw_leaflet_new()!
        let folds = tactile_leaflet(leaflet)
        adw_leaflet_set_can_navigate_back(folds, 1)
        adw_leaflet_set_transition_type(folds, ADW_LEAFLET_TRANSITION_TYPE_OVER)

        // The sidebar pane: the app's title and the list of pages.
        let sidebarHeader = adw_header_bar_new()!
        adw_header_bar_set_title_widget(
            tactile_header_bar(sidebarHeader), adw_window_title_new(title, nil))
        let sidebar = gtk_stack_sidebar_new()!
        gtk_stack_sidebar_set_stack(tactile_stack_sidebar(sidebar), tactile_stack(stack))
        gtk_widget_set_vexpand(sidebar, 1)
        // Up and Down pick pages; Tab goes into the page shown (into its component, which
        // takes the keys), not to the next row, which would switch pages as focus passes.
        let preferred = Dictionary(uniqueKeysWithValues: pages.map { ($0.name, $0.root) })
        // Shift+Tab leaves the list too, backwards into the page's last control, rather than
        // moving to the row above (which would switch pages).
        interceptKeys(of: sidebar) { keyval, modifiers in
            guard let direction = tabDirection(keyval: keyval, state: modifiers),
                let name = gtk_stack_get_visible_child_name(tactile_stack(stack)),
                let page = preferred[String(cString: name)]
            else { return false }
            if direction == GTK_DIR_TAB_BACKWARD {
                let controls = (page.preferredFocus as? ComponentView)?.tabForward ?? page
                return gtk_widget_child_focus(controls.widget, GTK_DIR_TAB_BACKWARD) != 0
            }
            if let focus = page.preferredFocus {
                focus.grabFocus()
                return true
            }
            return gtk_widget_child_focus(page.widget, GTK_DIR_TAB_FORWARD) != 0
        }
        // The way in, reversed: Shift+Tab on a page's component goes back to the list.
        for page in pages {
            (page.root.preferredFocus as? ComponentView)?.tabBackward = {
                gtk_widget_child_focus(sidebar, GTK_DIR_TAB_FORWARD) != 0
            }
        }
        // Folded, the list of pages is a whole window of its own: the main menu is there too.
        let sidebarMenu = Self.menuButton()
        adw_header_bar_pack_end(tactile_header_bar(sidebarHeader), sidebarMenu)
        let sidebarPane = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(tactile_box(sidebarPane), sidebarHeader)
        gtk_box_append(tactile_box(sidebarPane), sidebar)
        gtk_widget_set_size_request(sidebarPane, 200, -1)

        // The content pane: the page's title, a way back when folded, the menu, the page.
        let contentHeader = adw_header_bar_new()!
        let pageTitle = adw_window_title_new(pages.first?.title ?? title, nil)!
        adw_header_bar_set_title_widget(tactile_header_bar(contentHeader), pageTitle)
        let back = gtk_button_new_from_icon_name("go-previous-symbolic")!
        gtk_widget_set_tooltip_text(back, Localization.text("Back to the pages"))
        tactile_accessible_set_label(back, Localization.text("Back to the pages"))
        adw_header_bar_pack_start(tactile_header_bar(contentHeader), back)
        adw_header_bar_pack_end(tactile_header_bar(contentHeader), Self.menuButton())
        let toasts = adw_toast_overlay_new()!
        adw_toast_overlay_set_child(tactile_toast_overlay(toasts), stack)
        let contentPane = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(tactile_box(contentPane), contentHeader)
        gtk_box_append(tactile_box(contentPane), toasts)
        gtk_widget_set_hexpand(contentPane, 1)
        // Narrower than this beside the sidebar, the window folds to one pane at a time.
        gtk_widget_set_size_request(contentPane, 520, -1)

        adw_leaflet_append(folds, sidebarPane)
        let separator = adw_leaflet_append(folds, gtk_separator_new(GTK_ORIENTATION_VERTICAL))
        adw_leaflet_page_set_navigatable(separator, 0)
        adw_leaflet_append(folds, contentPane)
        adw_leaflet_set_visible_child(folds, contentPane)

        // Window buttons once, at the window's edge: on the content's header while unfolded,
        // on both when folded (each pane is then the whole window).
        let folded = "folded"
        g_object_bind_property(
            UnsafeMutableRawPointer(leaflet), folded, UnsafeMutableRawPointer(sidebarHeader),
            "show-end-title-buttons", G_BINDING_SYNC_CREATE)
        g_object_bind_property(
            UnsafeMutableRawPointer(leaflet), folded, UnsafeMutableRawPointer(contentHeader),
            "show-start-title-buttons", G_BINDING_SYNC_CREATE)
        g_object_bind_property(
            UnsafeMutableRawPointer(leaflet), folded, UnsafeMutableRawPointer(back), "visible",
            G_BINDING_SYNC_CREATE)
        g_object_bind_property(
            UnsafeMutableRawPointer(leaflet), folded, UnsafeMutableRawPointer(sidebarMenu),
            "visible", G_BINDING_SYNC_CREATE)
        connect(back, signal: "clicked") {
            _ = adw_leaflet_navigate(folds, ADW_NAVIGATION_DIRECTION_BACK)
        }

        // Picking a page shows it (folded: slides to it) and names it in the header.
        let titles = Dictionary(uniqueKeysWithValues: pages.map { ($0.name, $0.title) })
        func pageShown() {
            if let name = gtk_stack_get_visible_child_name(tactile_stack(stack)) {
                adw_window_title_set_title(
                    OpaquePointer(pageTitle), titles[String(cString: name)] ?? title)
            }
        }
        pageShown()
        connect(stack, notify: "visible-child") {
            pageShown()
            adw_leaflet_set_visible_child(folds, contentPane)
        }

        let window = adw_application_window_new(app)!
        self.window = window
        gtk_window_set_title(tactile_window(window), title)
        gtk_window_set_default_size(tactile_window(window), 1100, 720)
        gtk_widget_set_size_request(window, Self.minimumWidth, 360)
        adw_application_window_set_content(tactile_application_window(window), leaflet)
        if let shortcuts = Self.shortcutsWindow() {
            gtk_application_window_set_help_overlay(
                tactile_gtk_application_window(window), shortcuts)
        }
    }

    /// A header bar's button opening the main menu.
    private static func menuButton() -> UnsafeMutablePointer<GtkWidget> {
        let menu = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(tactile_menu_button(menu), "open-menu-symbolic")
        gtk_menu_button_set_menu_model(tactile_menu_button(menu), mainMenu())
        gtk_widget_set_tooltip_text(menu, Localization.text("Main menu"))
        tactile_accessible_set_label(menu, Localization.text("Main menu"))
        return menu
    }

    /// The main menu.
    private static func mainMenu() -> UnsafeMutablePointer<GMenuModel> {
        let menu = g_menu_new()!
        g_menu_append(menu, Localization.text("Keyboard Shortcuts"), "win.show-help-overlay")
        g_menu_append(menu, Localization.text("About Tactile"), "app.about")
        g_menu_append(menu, Localization.text("Quit"), "app.quit")
        return UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self)
    }

    /// The keyboard-shortcuts window (Ctrl+?), listing the app's and each component's keys.
    private static func shortcutsWindow() -> OpaquePointer? {
        func shortcut(_ keys: String, _ title: String) -> String {
            """
            <child><object class="GtkShortcutsShortcut">\
            <property name="accelerator">\(keys)</property>\
            <property name="title">\(escaped(title))</property></object></child>
            """
        }
        func group(_ title: String, _ items: [String]) -> String {
            """
            <child><object class="GtkShortcutsGroup">\
            <property name="title">\(escaped(title))</property>\(items.joined())</object></child>
            """
        }
        let groups = [
            group(
                Localization.text("General"),
                [
                    shortcut("&lt;Control&gt;question", Localization.text("Keyboard shortcuts")),
                    shortcut("&lt;Control&gt;w", Localization.text("Close the window")),
                    shortcut("&lt;Control&gt;q", Localization.text("Quit")),
                    shortcut("Tab", Localization.text("From a component into its page's controls")),
                ]),
            group(
                Localization.text("Tower of Hanoi"),
                [
                    shortcut("space", Localization.text("Play or pause the solution")),
                    shortcut(
                        "Left Right",
                        Localization.text("Step back or forward (undo or redo by hand)")),
                    shortcut(
                        "a b c", Localization.text("Pick a peg, then another to move its top disk")),
                    shortcut(
                        "1 2 3", Localization.text("Pick a peg by its number (0 is the tenth)")),
                    shortcut("Escape", Localization.text("Drop the peg picked")),
                ]),
            group(
                Localization.text("Newton's cradle"),
                [
                    shortcut("1 2 3", Localization.text("Pull that many balls and let go")),
                    shortcut("space", Localization.text("Pause or go on")),
                    shortcut("r", Localization.text("Reset")),
                ]),
            group(
                Localization.text("Pattern lock"),
                [
                    shortcut("Left Right Up Down", Localization.text("Move between dots")),
                    shortcut("space", Localization.text("Add the dot")),
                    shortcut("Return", Localization.text("Finish the pattern")),
                ]),
            group(
                Localization.text("Puzzle captcha"),
                [
                    shortcut("Left Right", Localization.text("Move the piece")),
                    shortcut(
                        "&lt;Shift&gt;Left &lt;Shift&gt;Right",
                        Localization.text("Move the piece a little")),
                    shortcut("Return", Localization.text("Try this position")),
                ]),
        ]
        let xml = """
            <interface><object class="GtkShortcutsWindow" id="shortcuts">\
            <property name="modal">1</property>\
            <child><object class="GtkShortcutsSection"><property name="section-name">main</property>\
            \(groups.joined())</object></child></object></interface>
            """
        let builder = gtk_builder_new()!
        defer { g_object_unref(UnsafeMutableRawPointer(builder)) }
        var error: UnsafeMutablePointer<GError>?
        guard gtk_builder_add_from_string(builder, xml, -1, &error) != 0 else {
            if let error {
                FileHandle.standardError.write(
                    Data(
                        "showcase: shortcuts window: \(String(cString: error.pointee.message))\n"
                            .utf8))
                g_error_free(error)
            }
            return nil
        }
        guard let object = gtk_builder_get_object(builder, "shortcuts") else { return nil }
        g_object_ref(UnsafeMutableRawPointer(object))
        return tactile_shortcuts_window(UnsafeMutableRawPointer(object))
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
            of: "<", with: "&lt;"
        )
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "'", with: "&apos;")
    }
}
