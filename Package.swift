// swift-tools-version: 6.0
import PackageDescription

// MARK: - Core (pure Swift, Foundation only)

let coreTargets: [Target] = [
    .target(name: "TactileCore"),
    .target(name: "TactileHanoi", dependencies: ["TactileCore"]),
]

// MARK: - Adapters (C libraries through pkg-config)

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
        name: "CGtk", pkgConfig: "gtk4",
        providers: [.apt(["libgtk-4-dev"])]),
]

let adapterTargets: [Target] = [
    .target(name: "TactileCairo", dependencies: ["TactileCore", "CCairo", "CPixbuf", "CGif"]),
    .target(name: "TactileGTK", dependencies: ["TactileCore", "TactileCairo", "CGtk"]),
]

// MARK: - Programs

let programTargets: [Target] = [
    .target(
        name: "TactileCommands", dependencies: ["TactileCore", "TactileHanoi", "TactileCairo"]),
    .executableTarget(name: "tactile", dependencies: ["TactileCommands"]),
    .executableTarget(
        name: "showcase",
        dependencies: ["TactileCore", "TactileHanoi", "TactileCairo", "TactileGTK"]),
]

// MARK: - Tests

let testTargets: [Target] = [
    .target(name: "TestSupport", dependencies: ["TactileCore"], path: "Tests/TestSupport"),
    .testTarget(name: "TactileCoreTests", dependencies: ["TactileCore", "TestSupport"]),
    .testTarget(name: "TactileHanoiTests", dependencies: ["TactileHanoi", "TestSupport"]),
    .testTarget(
        name: "TactileCairoTests",
        dependencies: ["TactileCairo", "TactileHanoi", "TestSupport"]),
    .testTarget(name: "TactileCommandsTests", dependencies: ["TactileCommands", "TestSupport"]),
]

let package = Package(
    name: "Tactile",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TactileCore", targets: ["TactileCore"]),
        .library(name: "TactileHanoi", targets: ["TactileHanoi"]),
        .library(name: "TactileCairo", targets: ["TactileCairo"]),
        .library(name: "TactileGTK", targets: ["TactileGTK"]),
        .executable(name: "tactile", targets: ["tactile"]),
        .executable(name: "showcase", targets: ["showcase"]),
    ],
    targets: coreTargets + systemLibraries + adapterTargets + programTargets + testTargets,
    swiftLanguageModes: [.v6]
)

// Strict concurrency and warnings policy for every Swift target, set in one place.
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
