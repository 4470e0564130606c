import TactileCore
import TactileGTK

/// A short description of Tactile, shown until the component pages arrive.
func makeAboutPage() -> Widget {
    let title = Label("Tactile")
    title.addStyleClass("title-1")
    let summary = Label(
        Localization.text(
            "Tactile is a Swift package of four interactive, animated components — a Tower of Hanoi auto-solver, Newton's cradle on a UIKit-Dynamics-style engine, a gesture pattern lock and a puzzle slider captcha — with a platform-neutral core that any UI host can drive. This showcase hosts each of them with GTK 4, on a page of its own in the list of pages."
        ))
    summary.wraps = true
    let page = Box(.vertical, spacing: 12, [title, summary])
    page.setMargins(24)
    return page
}
