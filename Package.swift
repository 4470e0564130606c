// swift-tools-version: 6.2
import PackageDescription

// MARK: - core

// Pure Swift and Foundation: what every other module builds on.
let coreTargets: [Target] = [
    .target(name: "TactileCore")
]

// MARK: - C libraries

// The Debian packages the platform modules wrap, through pkg-config.
let systemLibraries: [Target] = [
    .systemLibrary(
        name: "CCairo", pkgConfig: "pangocairo",
        providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
    .systemLibrary(
        name: "CPixbuf", pkgConfig: "gdk-pixbuf-2.0",
        providers: [.apt(["libgdk-pixbuf-2.0-dev"])]),
    .systemLibrary(
        name: "CGif", pkgConfig: "libgif",
        providers: [.apt(["libgif-dev"])]),
    .systemLibrary(
        name: "CGtk", pkgConfig: "libadwaita-1",
        providers: [.apt(["libgtk-4-dev", "libadwaita-1-dev"])]),
    .systemLibrary(
        name: "CSodium", pkgConfig: "libsodium",
        providers: [.apt(["libsodium-dev"])]),
    .systemLibrary(
        name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
        providers: [.apt(["libmicrohttpd-dev"])]),
    .systemLibrary(
        name: "CHiredis", pkgConfig: "hiredis",
        providers: [.apt(["libhiredis-dev"])]),
    .systemLibrary(
        name: "CTurboJPEG", pkgConfig: "libturbojpeg",
        providers: [.apt(["libturbojpeg0-dev"])]),
    .systemLibrary(
        name: "CSoup", pkgConfig: "libsoup-3.0",
        providers: [.apt(["libsoup-3.0-dev"])]),
]

// MARK: - platform

// Swift over the C libraries: cryptography, drawing, the GTK host, an HTTP server and client.
let platformTargets: [Target] = [
    .target(name: "TactileCrypto", dependencies: ["CSodium"]),
    .target(name: "TactileCairo", dependencies: ["TactileCore", "CCairo", "CPixbuf", "CGif"]),
    .target(name: "TactileGTK", dependencies: ["TactileCore", "TactileCairo", "CGtk"]),
    .target(name: "TactileHTTP", dependencies: ["CMicroHTTPD"]),
    .target(name: "TactileSoup", dependencies: ["CSoup"]),
]

// MARK: - components

// The four components: models, animation, rendering and views, pure Swift.
let componentTargets: [Target] = [
    .target(name: "TactileHanoi", dependencies: ["TactileCore"]),
    .target(name: "TactileDynamics", dependencies: ["TactileCore"]),
    .target(name: "TactileCradle", dependencies: ["TactileCore", "TactileDynamics"]),
    .target(name: "TactilePatternLock", dependencies: ["TactileCore"]),
    .target(name: "TactilePuzzle", dependencies: ["TactileCore"]),
]

// MARK: - back ends

// What stands behind the components: the pattern store, and the captcha's verifier, imaging,
// stores, service and the attacks it is measured against.
let backEndTargets: [Target] = [
    .target(
        name: "TactilePatternVault",
        dependencies: ["TactileCore", "TactilePatternLock", "TactileCrypto"]),
    // The verifier's core: answers, tokens, judgement, policy (no images).
    .target(
        name: "TactilePuzzleVerifier",
        dependencies: ["TactileCore", "TactilePuzzle", "TactileCrypto"],
        // The drag model's trees, as scripts/drag-model/train.py writes them.
        resources: [
            .copy("Verification/Judgement/DragModel.txt"),
            .copy("Verification/Judgement/TouchDragModel.txt"),
        ]),
    // Puzzles cut from pictures and encoded for clients.
    .target(
        name: "TactilePuzzleImaging",
        dependencies: [
            "TactileCore", "TactilePuzzle", "TactilePuzzleVerifier", "TactileCairo", "CTurboJPEG",
        ]),
    // Where the verifier's state lives: in memory, in a directory, or in Redis (hiredis).
    .target(
        name: "TactilePuzzleStores",
        dependencies: [
            "TactileCore", "TactileCrypto", "TactilePuzzleVerifier", "CHiredis",
        ]),
    // The captcha's flow (issue, answer, redeem) over any store, and the round trip in one
    // process.
    .target(
        name: "TactilePuzzleDesk",
        dependencies: [
            "TactileCore", "TactileCrypto", "TactilePuzzle", "TactilePuzzleVerifier",
            "TactilePuzzleImaging", "TactilePuzzleStores",
        ]),
    .target(
        name: "TactilePuzzleService",
        dependencies: [
            "TactileCore", "TactileCrypto", "TactileHTTP", "TactilePuzzle",
            "TactilePuzzleVerifier", "TactilePuzzleImaging", "TactilePuzzleStores",
            "TactilePuzzleDesk",
        ],
        resources: [.copy("Web")]),
    // Attacks on the captcha (gap finders of the kind bots use), for tests and the bench only.
    .target(
        name: "TactilePuzzleSolvers",
        dependencies: [
            "TactileCore", "TactileCairo", "TactilePuzzle", "TactilePuzzleVerifier",
            "TactilePuzzleImaging",
        ]),
]

// MARK: - programs

// The tool, the benchmarks' program and the desktop app.
let programTargets: [Target] = [
    .target(
        name: "TactileCommands",
        dependencies: [
            "TactileCore", "TactileHanoi", "TactileCairo", "TactileCradle", "TactilePatternLock",
            "TactilePatternVault", "TactilePuzzle", "TactilePuzzleVerifier", "TactilePuzzleImaging",
            "TactileCrypto", "TactilePuzzleService", "TactilePuzzleStores", "TactileHTTP",
            "TactilePuzzleDesk",
        ]),
    .executableTarget(name: "tactile", dependencies: ["TactileCommands"]),
    // The benchmarks, with the attacks they measure, as a program of their own that
    // `tactile bench` runs: none of it is in the `tactile` that ships.
    .target(
        name: "TactileBenchmarks",
        dependencies: [
            "TactileCommands", "TactileCore", "TactileHanoi", "TactileCairo", "TactileDynamics",
            "TactileCradle", "TactilePatternLock", "TactilePatternVault", "TactilePuzzle",
            "TactilePuzzleVerifier", "TactilePuzzleImaging", "TactileCrypto",
            "TactilePuzzleSolvers",
        ]),
    .executableTarget(
        name: "tactile-bench", dependencies: ["TactileBenchmarks", "TactileCommands"]),
    .executableTarget(
        name: "showcase",
        dependencies: [
            "TactileCore", "TactileHanoi", "TactileCairo", "TactileGTK", "TactileCradle",
            "TactilePatternLock", "TactilePatternVault", "TactilePuzzle",
            "TactilePuzzleVerifier", "TactilePuzzleImaging", "TactilePuzzleDesk", "TactileCrypto",
            "TactileSoup", "CGtk",
        ]),
]

// MARK: - Tests

let testTargets: [Target] = [
    .target(name: "TestSupport", dependencies: ["TactileCore"], path: "Tests/TestSupport"),
    // Independent readings of JSON, for TactileCore's tests and its fuzz target.
    .target(name: "JSONOracle", dependencies: ["TactileCore"], path: "Tests/JSONOracle"),
    .testTarget(
        name: "TactileCoreTests", dependencies: ["TactileCore", "TestSupport", "JSONOracle"]),
    .testTarget(name: "TactileHanoiTests", dependencies: ["TactileHanoi", "TestSupport"]),
    .testTarget(
        name: "TactileCairoTests",
        dependencies: ["TactileCairo", "TactileHanoi", "TestSupport"]),
    .testTarget(
        name: "TactileCommandsTests",
        dependencies: [
            "TactileCommands", "TactileCairo", "TactileCore", "TactileCrypto", "TactilePuzzle",
            "TactilePuzzleVerifier", "TactilePuzzleImaging", "TactilePuzzleSolvers",
            "TactilePuzzleStores", "TestSupport",
        ],
        // Golden help texts and snapshots, read from the source tree by path.
        exclude: ["Golden"]),
    .testTarget(name: "TactileDynamicsTests", dependencies: ["TactileDynamics", "TestSupport"]),
    .testTarget(
        name: "TactileCradleTests",
        dependencies: ["TactileCradle", "TactileDynamics", "TestSupport"]),
    // The pattern lock's helpers, shared by its test targets.
    .target(
        name: "PatternTestSupport",
        dependencies: [
            "TactileCrypto", "TactilePatternLock", "TactilePatternVault", "TestSupport",
        ],
        path: "Tests/PatternTestSupport"),
    .testTarget(
        name: "TactilePatternLockTests",
        dependencies: [
            "TactilePatternLock", "TactilePatternVault", "TestSupport", "PatternTestSupport",
        ]),
    .testTarget(
        name: "TactilePatternVaultTests",
        dependencies: [
            "TactilePatternLock", "TactilePatternVault", "TestSupport", "PatternTestSupport",
        ]),
    // The captcha's helpers, shared by its test targets.
    .target(
        name: "PuzzleTestSupport",
        dependencies: [
            "TactileCore", "TactilePuzzle", "TactilePuzzleVerifier", "TactilePuzzleImaging",
            "TactilePuzzleSolvers", "TactilePuzzleStores", "TestSupport",
        ],
        path: "Tests/PuzzleTestSupport"),
    .testTarget(
        name: "TactilePuzzleTests",
        dependencies: ["TactilePuzzle", "TactileCore", "TestSupport"]),
    .testTarget(
        name: "TactilePuzzleVerifierTests",
        dependencies: [
            "TactilePuzzle", "TactilePuzzleVerifier", "TactilePuzzleImaging",
            "TactilePuzzleSolvers", "TactileCairo", "TactileCrypto", "TactileCore", "TestSupport",
            "PuzzleTestSupport",
        ],
        exclude: ["Fixtures"]),
    .testTarget(
        name: "TactilePuzzleImagingTests",
        dependencies: [
            "TactilePuzzle", "TactilePuzzleVerifier", "TactilePuzzleImaging",
            "TactilePuzzleSolvers", "TactileCairo", "TactileCrypto", "TactileCore", "TestSupport",
            "PuzzleTestSupport",
        ]),
    .testTarget(
        name: "TactilePuzzleSolversTests",
        dependencies: [
            "TactilePuzzle", "TactilePuzzleImaging", "TactilePuzzleSolvers", "TactileCore",
            "PuzzleTestSupport",
        ]),
    .testTarget(
        name: "TactilePuzzleStoresTests",
        dependencies: [
            "TactilePuzzle", "TactilePuzzleVerifier", "TactilePuzzleImaging",
            "TactilePuzzleSolvers", "TactileCairo", "TactileCrypto", "TactileCore", "TestSupport",
            "PuzzleTestSupport",
            "TactilePuzzleStores",
        ]),
    .testTarget(
        name: "TactilePuzzleDeskTests",
        dependencies: [
            "TactilePuzzle", "TactilePuzzleVerifier", "TactilePuzzleImaging",
            "TactilePuzzleStores", "TactilePuzzleDesk", "TactileCore", "TestSupport",
            "PuzzleTestSupport",
        ]),
    .testTarget(name: "TactileCryptoTests", dependencies: ["TactileCrypto"]),
    .testTarget(name: "TactileGTKTests", dependencies: ["TactileGTK", "TactileCore", "CGtk"]),
    .testTarget(name: "TactileHTTPTests", dependencies: ["TactileHTTP"]),
    .testTarget(name: "TactileSoupTests", dependencies: ["TactileSoup", "TactileHTTP", "CSoup"]),
    .testTarget(
        name: "TactilePuzzleServiceTests",
        dependencies: [
            "TactilePuzzleService", "TactilePuzzleStores", "TactilePuzzleVerifier",
            "TactilePuzzleImaging", "TactilePuzzleDesk",
            "TactilePuzzleSolvers", "TactileHTTP",
            "TactilePuzzle", "TactileCore", "TactileCairo", "TestSupport", "PuzzleTestSupport",
        ]),
]

let package = Package(
    name: "Tactile",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TactileCore", targets: ["TactileCore"]),
        .library(name: "TactileHanoi", targets: ["TactileHanoi"]),
        .library(name: "TactileCairo", targets: ["TactileCairo"]),
        .library(name: "TactileGTK", targets: ["TactileGTK"]),
        .library(name: "TactileDynamics", targets: ["TactileDynamics"]),
        .library(name: "TactileCradle", targets: ["TactileCradle"]),
        .library(name: "TactilePatternLock", targets: ["TactilePatternLock"]),
        .library(name: "TactilePatternVault", targets: ["TactilePatternVault"]),
        .library(name: "TactilePuzzle", targets: ["TactilePuzzle"]),
        .library(name: "TactilePuzzleVerifier", targets: ["TactilePuzzleVerifier"]),
        .library(name: "TactilePuzzleImaging", targets: ["TactilePuzzleImaging"]),
        .library(name: "TactileHTTP", targets: ["TactileHTTP"]),
        .library(name: "TactileSoup", targets: ["TactileSoup"]),
        .library(name: "TactilePuzzleStores", targets: ["TactilePuzzleStores"]),
        .library(name: "TactilePuzzleDesk", targets: ["TactilePuzzleDesk"]),
        .library(name: "TactilePuzzleService", targets: ["TactilePuzzleService"]),
        // The command-line tool as a library, so other packages (the fuzz targets) can run it.
        .library(name: "TactileCommands", targets: ["TactileCommands"]),
        // The JSON oracle the fuzz package shares with the unit tests; not for other uses.
        .library(name: "TactileJSONOracle", targets: ["JSONOracle"]),
        .executable(name: "tactile", targets: ["tactile"]),
        .executable(name: "tactile-bench", targets: ["tactile-bench"]),
        .executable(name: "showcase", targets: ["showcase"]),
    ],
    targets: coreTargets + systemLibraries + platformTargets + componentTargets + backEndTargets
        + programTargets + testTargets,
    swiftLanguageModes: [.v6]
)

// Strict concurrency and the warnings policy for every Swift target, set in one place.
//
// Warnings are errors in the library and program targets (everything under Sources) when
// TACTILE_WARNINGS_AS_ERRORS=1 is set, as scripts/test.sh sets it. Not always: a package or
// Xcode project that depends on Tactile compiles it with warnings suppressed, which the
// compiler refuses to combine with warnings as errors, and a newer compiler's new warning
// must not stop anyone's build.
//
// SwiftPM's own "prohibited flag(s): …" warnings, printed while it plans a build, remain: of
// a system library's pkg-config flags it keeps only -I and -F (and -L, -l, -F, -framework,
// -w of its Libs), says which it dropped, and has no setting to keep quiet. None is needed
// here: -pthread (glib; threads are in glibc itself), -D_FILE_OFFSET_BITS=64 (hiredis; off_t
// is 64-bit on 64-bit Linux anyway), -mfpmath=sse -msse -msse2 (graphene, through GTK; for
// 32-bit x86) and -Wl,--export-dynamic (gmodule; for GtkBuilder to find signal handlers by
// name, which the showcase never asks it to).
let warningsAreErrors = Context.environment["TACTILE_WARNINGS_AS_ERRORS"] == "1"
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    let isInSources = target.type != .test && target.path?.hasPrefix("Tests/") != true
    if warningsAreErrors && isInSources {
        settings.append(.treatAllWarnings(as: .error))
    }
    target.swiftSettings = settings
}
