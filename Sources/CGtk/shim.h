#include <gtk/gtk.h>
#include <adwaita.h>

// Function-style wrappers for GObject macros, which Swift cannot import.

static inline GtkWindow *tactile_window(gpointer instance) { return GTK_WINDOW(instance); }
static inline GtkBox *tactile_box(gpointer instance) { return GTK_BOX(instance); }
static inline GtkDrawingArea *tactile_drawing_area(gpointer instance) { return GTK_DRAWING_AREA(instance); }
static inline GtkEventController *tactile_event_controller(gpointer instance) { return GTK_EVENT_CONTROLLER(instance); }
static inline GtkGestureSingle *tactile_gesture_single(gpointer instance) { return GTK_GESTURE_SINGLE(instance); }
static inline GtkGestureDrag *tactile_gesture_drag(gpointer instance) { return GTK_GESTURE_DRAG(instance); }
static inline GApplication *tactile_g_application(gpointer instance) { return G_APPLICATION(instance); }
static inline GtkButton *tactile_button(gpointer instance) { return GTK_BUTTON(instance); }
static inline GtkLabel *tactile_label(gpointer instance) { return GTK_LABEL(instance); }
static inline GtkEditable *tactile_editable(gpointer instance) { return GTK_EDITABLE(instance); }
static inline GtkRange *tactile_range(gpointer instance) { return GTK_RANGE(instance); }
static inline GtkScale *tactile_scale(gpointer instance) { return GTK_SCALE(instance); }
static inline GtkToggleButton *tactile_toggle_button(gpointer instance) { return GTK_TOGGLE_BUTTON(instance); }
static inline GtkCheckButton *tactile_check_button(gpointer instance) { return GTK_CHECK_BUTTON(instance); }
static inline GtkStack *tactile_stack(gpointer instance) { return GTK_STACK(instance); }
static inline GtkStackSidebar *tactile_stack_sidebar(gpointer instance) { return GTK_STACK_SIDEBAR(instance); }
static inline GtkSpinButton *tactile_spin_button(gpointer instance) { return GTK_SPIN_BUTTON(instance); }
static inline GtkDropDown *tactile_drop_down(gpointer instance) { return GTK_DROP_DOWN(instance); }
static inline GObject *tactile_object(gpointer instance) { return G_OBJECT(instance); }
static inline guint tactile_button_primary(void) { return GDK_BUTTON_PRIMARY; }
static inline GtkEntry *tactile_entry(gpointer instance) { return GTK_ENTRY(instance); }
static inline GtkFrame *tactile_frame(gpointer instance) { return GTK_FRAME(instance); }

/* A boolean GObject property, such as a check or toggle button's "active" (g_object_get and
   g_object_set are variadic). */
static inline gboolean tactile_get_boolean(gpointer instance, const char *property) {
    gboolean value = FALSE;
    g_object_get(instance, property, &value, NULL);
    return value;
}
static inline void tactile_set_boolean(gpointer instance, const char *property, gboolean value) {
    g_object_set(instance, property, value, NULL);
}

/* Accessibility: the update functions are variadic, and a drawing area's role can only be
   given when it is made. */
static inline GtkWidget *tactile_drawing_area_new_with_role(GtkAccessibleRole role) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_DRAWING_AREA, "accessible-role", role, NULL));
}
static inline void tactile_accessible_set_label(gpointer instance, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(instance), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}
static inline void tactile_accessible_set_description(gpointer instance, const char *text) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(instance), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}
static inline void tactile_accessible_set_disabled(gpointer instance, gboolean disabled) {
    gtk_accessible_update_state(GTK_ACCESSIBLE(instance), GTK_ACCESSIBLE_STATE_DISABLED, disabled, -1);
}

/* libadwaita and GIO casts. */
static inline AdwLeaflet *tactile_leaflet(gpointer instance) { return ADW_LEAFLET(instance); }
static inline AdwHeaderBar *tactile_header_bar(gpointer instance) { return ADW_HEADER_BAR(instance); }
static inline AdwToastOverlay *tactile_toast_overlay(gpointer instance) { return ADW_TOAST_OVERLAY(instance); }
static inline AdwApplicationWindow *tactile_application_window(gpointer instance) { return ADW_APPLICATION_WINDOW(instance); }
static inline GtkApplicationWindow *tactile_gtk_application_window(gpointer instance) { return GTK_APPLICATION_WINDOW(instance); }
static inline GtkApplication *tactile_gtk_application(gpointer instance) { return GTK_APPLICATION(instance); }
static inline GActionMap *tactile_action_map(gpointer instance) { return G_ACTION_MAP(instance); }
static inline GtkMenuButton *tactile_menu_button(gpointer instance) { return GTK_MENU_BUTTON(instance); }
static inline GtkScrolledWindow *tactile_scrolled_window(gpointer instance) { return GTK_SCROLLED_WINDOW(instance); }
static inline GtkShortcutsWindow *tactile_shortcuts_window(gpointer instance) { return GTK_SHORTCUTS_WINDOW(instance); }
static inline GType tactile_toast_overlay_type(void) { return ADW_TYPE_TOAST_OVERLAY; }
static inline GType tactile_shortcuts_window_type(void) { return GTK_TYPE_SHORTCUTS_WINDOW; }
static inline GtkOrientable *tactile_orientable(gpointer instance) { return GTK_ORIENTABLE(instance); }

/* Whether the desktop wants animations (GtkSettings:gtk-enable-animations). */
static inline gboolean tactile_settings_enable_animations(void) {
    GtkSettings *settings = gtk_settings_get_default();
    gboolean enabled = TRUE;
    if (settings) g_object_get(settings, "gtk-enable-animations", &enabled, NULL);
    return enabled;
}
