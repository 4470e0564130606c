import Testing

@testable import TactileCore

/// Placeholders are filled by number, so a translation may reorder them; a catalogue decides
/// the words and the plural form.
@Suite(.serialized) struct LocalizationTests {
    @Test func placeholdersAreFilledByNumberInAnyOrder() {
        #expect(Localization.fill("Move {1} of {2}", with: [4, 31]) == "Move 4 of 31")
        #expect(Localization.fill("共 {2} 步，第 {1} 步", with: [4, 31]) == "共 31 步，第 4 步")
        // Not placeholders: left as written.
        #expect(Localization.fill("{0} {x} {3} {", with: [1, 2]) == "{0} {x} {3} {")
        #expect(Localization.fill("{1}{1}", with: ["ab"]) == "abab")
        #expect(Localization.fill("no values {1}", with: []) == "no values {1}")
    }

    @Test func aCatalogueTranslatesAndPicksThePluralForm() {
        let saved = Localization.catalog
        defer { Localization.catalog = saved }
        #expect(Localization.plural("{1} disk", "{1} disks", count: 1, 1) == "1 disk")
        #expect(Localization.plural("{1} disk", "{1} disks", count: 2, 2) == "2 disks")
        #expect(Localization.plural("{1} disk", "{1} disks", count: 0, 0) == "0 disks")
        Localization.catalog = Localization.Catalog(
            text: { $0 == "Move {1} of {2}" ? "第 {1} 步，共 {2} 步" : $0 },
            // Other messages stay English, in the right form: tests running meanwhile see
            // the catalogue too.
            plural: { singular, plural, count in
                singular == "{1} disk" ? "{1} 个盘子" : count == 1 ? singular : plural
            })
        #expect(Localization.text("Move {1} of {2}", 4, 31) == "第 4 步，共 31 步")
        #expect(Localization.plural("{1} disk", "{1} disks", count: 5, 5) == "5 个盘子")
        #expect(Localization.text("Untranslated") == "Untranslated")
    }
}
