import Foundation
import TactileGTK

/// Every page of the showcase, in sidebar order. Add new pages here.
func registerPages(in app: ShowcaseApplication) {
    app.addPage(name: "hanoi", title: "Tower of Hanoi", build: makeHanoiPage)
    app.addPage(name: "cradle", title: "Newton's cradle", build: makeCradlePage)
    app.addPage(name: "pattern", title: "Pattern lock", build: makePatternPage)
    app.addOption(
        name: "captcha-server", valueName: "URL",
        description: "Take the captcha page's puzzles from a running tactile puzzle serve",
        validate: { url in
            url.hasPrefix("http://") || url.hasPrefix("https://")
                ? nil : "expected an http:// or https:// URL, got \"\(url)\""
        })
    app.addOption(
        name: "captcha-sitekey", valueName: "KEY",
        description: "The site key to ask the captcha server for (serve prints it)")
    app.addPage(name: "puzzle", title: "Puzzle captcha") {
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
    app.addPage(name: "about", title: "About", build: makeAboutPage)
}

/// A component page's two columns: its controls on the left, at least `controlsWidth` wide and
/// never widened by the sliders in them (which ask to expand) at the component's expense; the
/// component on the right with its status lines under it, so their changing length never
/// resizes the component.
func pageLayout(controls: Widget, controlsWidth: Int, stage: [Widget]) -> Box {
    controls.setMinimumSize(width: controlsWidth)
    controls.expandsHorizontally = false
    let page = Box(.horizontal, spacing: 12, [controls, Box(.vertical, spacing: 6, stage)])
    page.setMargins(12)
    // The component takes the keys from the start, not the first field of the controls; Tab
    // from it goes into the controls (they come first on screen, so GTK's own order would
    // leave the page for the sidebar).
    let component = stage.first { $0 is ComponentView } as? ComponentView
    page.preferredFocus = component
    component?.tabForward = controls
    return page
}
