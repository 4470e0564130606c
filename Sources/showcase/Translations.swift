import CGtk
import Foundation
import Glibc
import TactileCore

/// The gettext domain of Tactile's messages: catalogues are `<dir>/<lang>/LC_MESSAGES/tactile.mo`.
private let domain = "tactile"

/// Makes the app and its components speak the language the environment asks for, through
/// gettext's catalogues for the `tactile` domain (`po/*.po`, compiled by
/// `scripts/build-translations.sh` or installed by `scripts/install.sh`).
///
/// Call it first, before GTK starts and before anything makes text. It sets the locale
/// from the environment; GTK then leaves the locale alone (it would set it again and undo
/// what is done here for the "C" locale, see ``chooseLocale(_:)``). Catalogues come from
/// `$TACTILE_LOCALEDIR`, or else from beside the program (``localeDirectory(_:)``). Without
/// a catalogue for the language, text stays English.
func installTranslations(environment: [String: String] = ProcessInfo.processInfo.environment) {
    chooseLocale(environment)
    gtk_disable_setlocale()
    _ = Gettext.bindTextDomain(domain, localeDirectory(environment))
    _ = Gettext.bindTextDomainCodeset(domain, "UTF-8")
    Localization.catalog = Localization.Catalog(
        text: { id in
            // gettext answers "" with the catalogue's header.
            guard !id.isEmpty else { return id }
            return id.withCString { String(cString: Gettext.dgettext(domain, $0)) }
        },
        plural: { singular, plural, count in
            singular.withCString { one in
                plural.withCString { other in
                    String(
                        cString: Gettext.dngettext(
                            domain, one, other, CUnsignedLong(clamping: count)))
                }
            }
        })
}

/// glibc's gettext functions, with their C signatures. Swift's Glibc module leaves out
/// `<libintl.h>`, so they are found in the C library by name.
private enum Gettext {
    typealias Bind =
        @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>) -> UnsafeMutablePointer<CChar>?
    typealias Lookup =
        @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>) -> UnsafePointer<CChar>
    typealias PluralLookup =
        @convention(c) (
            UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafePointer<CChar>, CUnsignedLong
        )
        -> UnsafePointer<CChar>

    /// `bindtextdomain(domain, dirname)`.
    static let bindTextDomain = function("bindtextdomain", as: Bind.self)
    /// `bind_textdomain_codeset(domain, codeset)`.
    static let bindTextDomainCodeset = function("bind_textdomain_codeset", as: Bind.self)
    /// `dgettext(domain, msgid)`: the translation, or `msgid` itself.
    static let dgettext = function("dgettext", as: Lookup.self)
    /// `dngettext(domain, msgid, msgid_plural, n)`: the form for `n`, or an English one.
    static let dngettext = function("dngettext", as: PluralLookup.self)

    private static func function<Function>(_ name: String, as type: Function.Type) -> Function {
        // The program's own handle finds the C library's symbols (gettext is part of glibc).
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), name) else {
            preconditionFailure("the C library has no \(name)")
        }
        return unsafeBitCast(symbol, to: type)
    }
}

/// Sets the locale from the environment (`setlocale(LC_ALL, "")`).
///
/// glibc ignores `LANGUAGE` while messages use the "C" locale: when `LANG` is unset, or
/// names a locale that is not generated on this machine (so `setlocale` fails and the
/// locale stays "C"). A language is still asked for then, so the locale becomes C.UTF-8
/// (built into glibc 2.35 and later, and not "C" to gettext), and when `LANGUAGE` is unset
/// it is set to the locale asked for: `LANGUAGE=zh_CN` and `LANG=zh_CN.UTF-8` both give
/// Chinese without a Chinese locale installed.
private func chooseLocale(_ environment: [String: String]) {
    setlocale(LC_ALL, "")
    let messages = setlocale(LC_MESSAGES, nil).map { String(cString: $0) } ?? "C"
    guard messages == "C" || messages == "POSIX" else { return }
    let asked = ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"].lazy
        .compactMap { environment[$0] }.first { !$0.isEmpty }
    guard let asked, asked != "C", asked != "POSIX", setlocale(LC_ALL, "C.UTF-8") != nil
    else { return }
    if environment["LANGUAGE", default: ""].isEmpty { setenv("LANGUAGE", asked, 1) }
}

/// Where the catalogues are: `$TACTILE_LOCALEDIR` when set; for an installed program
/// (`PREFIX/bin/showcase`), `PREFIX/share/locale`; for a build in the tree
/// (`.build/<triple>/debug/showcase`), the `locale` folder `scripts/build-translations.sh`
/// fills, `.build/locale`, found beside the program's folder or one level up.
private func localeDirectory(_ environment: [String: String]) -> String {
    if let directory = environment["TACTILE_LOCALEDIR"], !directory.isEmpty { return directory }
    let executable =
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        ?? CommandLine.arguments[0]
    let folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
    let candidates = ["../share/locale", "../locale", "../../locale"].map {
        folder.appendingPathComponent($0).standardizedFileURL.path
    }
    var isDirectory: ObjCBool = false
    return candidates.first {
        FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory)
            && isDirectory.boolValue
    } ?? candidates[0]
}
