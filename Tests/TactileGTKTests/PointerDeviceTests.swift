import CGtk
import TactileCore
import TactileGTK
import Testing

/// A drag's device comes from the GDK source of the device that began it: the verifier judges
/// a finger's drag by what a touchscreen produces.
struct PointerDeviceTests {
    @Test(arguments: [
        (GDK_SOURCE_TOUCHSCREEN, PointerDevice.touch), (GDK_SOURCE_PEN, .pen),
        (GDK_SOURCE_MOUSE, .mouse), (GDK_SOURCE_TOUCHPAD, .mouse),
        (GDK_SOURCE_TRACKPOINT, .mouse), (GDK_SOURCE_KEYBOARD, .mouse),
        (GDK_SOURCE_TABLET_PAD, .mouse),
    ])
    func eachGDKSourceIsTheDeviceTheServiceNames(source: GdkInputSource, device: PointerDevice) {
        #expect(ComponentView.pointerDevice(for: source) == device)
    }
}
