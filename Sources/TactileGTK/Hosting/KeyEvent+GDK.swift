import CGtk
import TactileCore

extension KeyEvent {
    /// Translates a GDK key press, or returns `nil` for keys components do not see
    /// (bare modifiers, function keys, dead keys).
    init?(keyval: guint, state: GdkModifierType) {
        guard let key = KeyEvent.Key(keyval: keyval) else { return nil }
        var modifiers: Modifiers = []
        if state.rawValue & GDK_SHIFT_MASK.rawValue != 0 { modifiers.insert(.shift) }
        if state.rawValue & GDK_CONTROL_MASK.rawValue != 0 { modifiers.insert(.control) }
        if state.rawValue & GDK_ALT_MASK.rawValue != 0 { modifiers.insert(.alternate) }
        self.init(key, modifiers: modifiers)
    }
}

extension KeyEvent.Key {
    /// The key for a GDK keyval; keypad keys count as their main-keyboard twins.
    init?(keyval: guint) {
        switch Int32(bitPattern: keyval) {
        case GDK_KEY_Left, GDK_KEY_KP_Left: self = .left
        case GDK_KEY_Right, GDK_KEY_KP_Right: self = .right
        case GDK_KEY_Up, GDK_KEY_KP_Up: self = .up
        case GDK_KEY_Down, GDK_KEY_KP_Down: self = .down
        case GDK_KEY_space, GDK_KEY_KP_Space: self = .space
        case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter: self = .enter
        case GDK_KEY_Escape: self = .escape
        case GDK_KEY_Tab, GDK_KEY_KP_Tab, GDK_KEY_ISO_Left_Tab: self = .tab
        case GDK_KEY_BackSpace: self = .backspace
        case GDK_KEY_Delete, GDK_KEY_KP_Delete: self = .delete
        case GDK_KEY_Home, GDK_KEY_KP_Home: self = .home
        case GDK_KEY_End, GDK_KEY_KP_End: self = .end
        case GDK_KEY_Page_Up, GDK_KEY_KP_Page_Up: self = .pageUp
        case GDK_KEY_Page_Down, GDK_KEY_KP_Page_Down: self = .pageDown
        default:
            let code = gdk_keyval_to_unicode(keyval)
            guard code >= 0x20, code != 0x7F, let scalar = Unicode.Scalar(code) else { return nil }
            self = .character(Character(scalar))
        }
    }
}

/// Which way a key press moves the keyboard focus: Tab (or the keypad's) forward, Shift+Tab
/// (which X sends as ISO_Left_Tab) backward; `nil` for any other key.
public func tabDirection(keyval: guint, state: GdkModifierType) -> GtkDirectionType? {
    guard KeyEvent.Key(keyval: keyval) == .tab else { return nil }
    let shifted = state.rawValue & GDK_SHIFT_MASK.rawValue != 0
    return shifted || keyval == UInt32(GDK_KEY_ISO_Left_Tab)
        ? GTK_DIR_TAB_BACKWARD : GTK_DIR_TAB_FORWARD
}
