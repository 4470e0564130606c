import TactileCore
import TestSupport
import Testing

@Suite("Colours")
struct ColorTests {
    @Test(
        arguments: [
            ("#FF8000", 255, 128, 0, 255),
            ("ff8000", 255, 128, 0, 255),
            ("#f80", 255, 136, 0, 255),
            ("#000", 0, 0, 0, 255),
            ("#11223344", 0x11, 0x22, 0x33, 0x44),
            ("#aBcDeF00", 0xAB, 0xCD, 0xEF, 0),
        ] as [(String, UInt8, UInt8, UInt8, UInt8)])
    func hexStringsParse(hex: String, red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) throws {
        let color = try #require(Color(hex: hex))
        #expect(color == Color(red8: red, green8: green, blue8: blue, alpha8: alpha))
    }

    @Test(arguments: [
        "", "#", "#12", "#1234", "#12345", "#1234567", "#123456789", "#GG0000", "##FFF", " #FFF",
        "#FF 000",
    ])
    func malformedHexStringsAreRejected(hex: String) {
        #expect(Color(hex: hex) == nil)
    }

    @Test func fullWidthDigitsAreNotHex() {
        #expect(Color(hex: "#\u{FF26}\u{FF26}\u{FF26}") == nil, "full-width digits are not hex")
    }

    @Test(arguments: [
        Color(red8: 255, green8: 128, blue8: 0),
        Color(red8: 1, green8: 2, blue8: 3, alpha8: 4),
        Color.clear,
        Color.white,
    ])
    func descriptionsReadBackAsTheSameColour(color: Color) throws {
        #expect(try #require(Color(hex: color.description)) == color)
    }

    @Test func descriptionsAreUpperCaseHexWithAlphaOnlyWhenTranslucent() {
        #expect(Color(red8: 255, green8: 128, blue8: 0).description == "#FF8000")
        #expect(Color(red8: 10, green8: 11, blue8: 12, alpha8: 128).description == "#0A0B0C80")
    }

    @Test func componentsAreClampedAndNaNBecomesZero() {
        let color = Color(red: 2, green: -1, blue: .nan, alpha: 0.5)
        #expect(color == Color(red: 1, green: 0, blue: 0, alpha: 0.5))
    }

    @Test(
        arguments: [
            (0.0, Color(red: 1, green: 0, blue: 0)),
            (1.0 / 6, Color(red: 1, green: 1, blue: 0)),
            (1.0 / 3, Color(red: 0, green: 1, blue: 0)),
            (0.5, Color(red: 0, green: 1, blue: 1)),
            (2.0 / 3, Color(red: 0, green: 0, blue: 1)),
            (5.0 / 6, Color(red: 1, green: 0, blue: 1)),
            (1.0, Color(red: 1, green: 0, blue: 0)),
            (-1.0 / 3, Color(red: 0, green: 0, blue: 1)),
        ] as [(Double, Color)])
    func fullySaturatedHuesAreThePrimariesAndSecondaries(hue: Double, expected: Color) {
        expectClose(Color(hue: hue, saturation: 1, value: 1), expected, within: 1e-12)
    }

    @Test func mixingInterpolatesEveryComponent() {
        let mixed = Color.black.mixed(
            with: Color(red: 1, green: 0.5, blue: 0, alpha: 0), fraction: 0.25)
        expectClose(mixed, Color(red: 0.25, green: 0.125, blue: 0, alpha: 0.75), within: 1e-15)
        #expect(Color.white.adjustingBrightness(-1) == .black)
        #expect(Color.black.adjustingBrightness(1) == .white)
    }

    @Test func nonFiniteHueIsSafe() {
        #expect(Color(hue: .nan, saturation: 1, value: 1) == Color(hue: 0, saturation: 1, value: 1))
        #expect(Color(hue: .infinity, saturation: 1, value: 1).alpha == 1)
    }
}
