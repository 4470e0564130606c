import TactileCore

/// The interactive Tower of Hanoi: an animated optimal solution with playback controls, and
/// manual play with drag-and-drop, click-click or peg keys (letters, and digits for ten pegs).
///
/// A ``HanoiModel`` behind the generic host: the host forwards pointer and key events and
/// moves time forward while it animates, tells `onEvent` what happened, and draws the model
/// with a ``HanoiRenderer`` and its theme. Controls outside the drawing (buttons, a seek bar)
/// change the model through `update` and read its properties through the host:
///
/// ```swift
/// let tower = try HanoiView(disks: 5)
/// tower.update { $0.play() }
/// label.text = tower.status
/// ```
public typealias HanoiView = ComponentHost<HanoiModel>

extension ComponentHost where Model == HanoiModel {
    /// Creates a view with all disks on A, to be moved to the last peg.
    public convenience init(disks: Int = 5, pegs: Int = 3) throws(HanoiError) {
        self.init(try HanoiModel(disks: disks, pegs: pegs))
    }
}

extension HanoiModel: ComponentModel {
    public static var standardThemes: Themes<HanoiTheme> { Themes(light: .light, dark: .dark) }

    /// The counts, the status line and the message, if any.
    public var accessibility: ComponentAccessibility {
        let description =
            if let message {
                Localization.plural(
                    "{1} disk on {2} pegs. {3}. {4}", "{1} disks on {2} pegs. {3}. {4}",
                    count: diskCount, diskCount, pegCount, status, message)
            } else {
                Localization.plural(
                    "{1} disk on {2} pegs. {3}", "{1} disks on {2} pegs. {3}", count: diskCount,
                    diskCount, pegCount, status)
            }
        return ComponentAccessibility(
            role: .group, label: Localization.text("Tower of Hanoi"), description: description)
    }

    public func draw(in canvas: any Canvas, theme: HanoiTheme) {
        let layout = self.layout
        HanoiRenderer(layout: layout, theme: theme).draw(
            shownPosition, loose: looseDisk(in: layout), marks: marks(in: layout), in: canvas)
    }
}
