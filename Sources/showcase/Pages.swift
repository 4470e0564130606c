import CGtk
import Foundation
import TactileCore
import TactileGTK

/// Every page of the showcase, in sidebar order. Add new pages here.
func registerPages(in app: ShowcaseApplication) {
    app.addPage(name: "hanoi", title: Localization.text("Tower of Hanoi"), build: makeHanoiPage)
    app.addPage(name: "cradle", title: Localization.text("Newton's cradle"), build: makeCradlePage)
    app.addPage(name: "pattern", title: Localization.text("Pattern lock"), build: makePatternPage)
    app.addOption(
        name: "captcha-server", valueName: "URL",
        description: Localization.text(
            "Take the captcha page's puzzles from a running tactile puzzle serve"),
        validate: { url in
            url.hasPrefix("http://") || url.hasPrefix("https://")
                ? nil : "expected an http:// or https:// URL, got \"\(url)\""
        })
    app.addOption(
        name: "captcha-sitekey", valueName: "KEY",
        description: Localization.text(
            "The site key to ask the captcha server for (serve prints it)"))
    app.addPage(name: "puzzle", title: Localization.text("Puzzle captcha")) {
        guard let server = app.option("captcha-server") else { return makePuzzlePage() }
        do {
            return makePuzzlePage(
                remote: try makeRemoteCaptcha(
                    server: server, siteKey: app.option("captcha-sitekey") ?? ""))
        } catch {
            FileHandle.standardError.write(Data("showcase: --captcha-server: \(error)\n".utf8))
            return makePuzzlePage()
        }
    }
    app.addPage(name: "about", title: Localization.text("About"), build: makeAboutPage)
}

/// A component page's two columns: its controls on the left, at least `controlsWidth` wide and
/// never widened by the sliders in them (which ask to expand) at the component's expense; the
/// component on the right with its status lines under it, so their changing length never
/// resizes the component.
func pageLayout(controls: Widget, controlsWidth: Int, stage: [Widget]) -> Box {
    controls.setMinimumSize(width: controlsWidth)
    controls.expandsHorizontally = false
    let column = Box(.vertical, spacing: 6, stage)
    let page = Box(.horizontal, spacing: 12, [controls, column])
    page.setMargins(12)
    // Too narrow for both columns side by side (half a small screen): the component goes on
    // top, the controls under it, and the page scrolls.
    page.widthChanged = { [weak page] width in
        guard let page else { return }
        let least = controls.measure(.horizontal).minimum + column.measure(.horizontal).minimum
        let fits = width >= Double(least + 12 + 24)
        let wanted: Box.Orientation = fits ? .horizontal : .vertical
        guard page.orientation != wanted else { return }
        page.orientation = wanted
        if fits {
            gtk_box_reorder_child_after(tactile_box(page.widget), column.widget, controls.widget)
        } else {
            gtk_box_reorder_child_after(tactile_box(page.widget), controls.widget, column.widget)
        }
    }
    // The component takes the keys from the start, not the first field of the controls; Tab
    // from it goes into the controls (they come first on screen, so GTK's own order would
    // leave the page for the sidebar).
    let component = stage.first { $0 is ComponentView } as? ComponentView
    page.preferredFocus = component
    component?.tabForward = controls
    // And back: Shift+Tab from the first control returns to the component (GTK's order would
    // leave the page for the header's menu button); Tab past the last control leaves the page
    // the way Shift+Tab on the component does (to the list of pages), not round to the
    // component again.
    if let component {
        interceptKeys(of: controls.widget) { keyval, modifiers in
            guard let direction = tabDirection(keyval: keyval, state: modifiers) else {
                return false
            }
            // Within the controls while there is one before (or after) the focused one.
            if gtk_widget_child_focus(controls.widget, direction) != 0 { return true }
            if direction == GTK_DIR_TAB_BACKWARD {
                component.grabFocus()
                return true
            }
            return component.tabBackward?() ?? false
        }
    }
    return page
}
