import Foundation
import TactileCore

/// Where an app keeps its pattern store: the user's state directory, as the XDG Base
/// Directory specification defines it.
public enum PatternStoreLocation {
    /// `$XDG_STATE_HOME/tactile/pattern.store`, or `$HOME/.local/state/tactile/pattern.store`
    /// when `XDG_STATE_HOME` is unset, empty or not an absolute path (the specification
    /// says to ignore relative ones).
    ///
    /// - Parameter environment: The process environment; a parameter so tests can vary it.
    public static func defaultPath(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        let base: String
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            base = state
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            base = home + "/.local/state"
        }
        return base + "/tactile/pattern.store"
    }

    /// Creates the directory holding `path` (and missing parents) with mode 0700, so only
    /// the user can list or replace the store.
    public static func makeDirectory(for path: String) throws(PatternVaultError) {
        let directory = FileAccess.parentDirectory(of: path)
        guard directory != ".", directory != "/" else { return }
        do throws(FileAccessError) {
            try FileAccess.createDirectory(directory, permissions: 0o700)
        } catch {
            // The folder that could not be made (the store's, or one above it), and why.
            throw .unwritable(
                path: path,
                reason: Localization.text("cannot create {1}: {2}", error.path, error.reason))
        }
    }
}
