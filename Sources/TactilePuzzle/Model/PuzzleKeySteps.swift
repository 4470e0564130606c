/// The steps an arrow key moves a puzzle piece, in picture pixels, shared by every control
/// (the app's view and the browser widget) and the rules that check keyboard attempts.
public enum PuzzleKeySteps {
    /// The step with Shift held.
    public static let fine = 1.0
    /// The first step of a press.
    public static let first = 4.0
    /// The largest step a held key reaches.
    public static let largest = 32.0
    /// Every step a key makes.
    public static let all: [Double] = [1, 4, 8, 16, 32]

    /// The step of the `repeats`-th press of a key held (or pressed again at once) since the
    /// first: 4 for the first three, then twice as much every three presses, up to 32, so
    /// that crossing a picture takes at most about 30 presses.
    public static func step(repeats: Int) -> Double {
        min(largest, first * Double(1 << min(3, max(0, repeats) / 3)))
    }
}
