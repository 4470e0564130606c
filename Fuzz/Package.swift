// swift-tools-version: 6.0
import PackageDescription

// libFuzzer targets for Tactile's parsers: one executable per target, one Swift file each.
// `scripts/fuzz.sh` builds them with `-sanitize=fuzzer,address -parse-as-library` for every
// module, so the library code is instrumented too, and runs them.

// MARK: - The package under test

func tactile(_ products: String...) -> [Target.Dependency] {
    products.map { .product(name: $0, package: "Tactile") }
}

// MARK: - libFuzzer's entry point

// SwiftPM links every executable with `main` redirected to `<target>_main`, which displaces
// libFuzzer's own `main`: each fuzz target defines `<target>_main` and calls
// `tactile_fuzz_main`, which starts libFuzzer's driver.
let driverTargets: [Target] = [.target(name: "FuzzDriver")]

// MARK: - Fuzz targets

let fuzzTargets: [Target] = [
    .executableTarget(
        name: "FuzzSVGPath",
        dependencies: ["FuzzDriver"]
            + tactile("TactileCore", "TactilePuzzle", "TactilePuzzleImaging")),
    .executableTarget(
        name: "FuzzDragTrack",
        dependencies: ["FuzzDriver"]
            + tactile("TactileCore", "TactilePuzzle", "TactilePuzzleVerifier")),
    .executableTarget(
        name: "FuzzPatternStore", dependencies: ["FuzzDriver"] + tactile("TactilePatternVault")),
    .executableTarget(
        name: "FuzzVerifierState",
        dependencies: ["FuzzDriver"]
            + tactile(
                "TactileCore", "TactilePuzzle", "TactilePuzzleVerifier", "TactilePuzzleImaging")),
    .executableTarget(
        name: "FuzzCommandLine", dependencies: ["FuzzDriver"] + tactile("TactileCommands")),
    .executableTarget(
        name: "FuzzJSON", dependencies: ["FuzzDriver"] + tactile("TactileCore", "TactileJSONOracle")
    ),
]

let package = Package(
    name: "TactileFuzz",
    platforms: [.macOS(.v15)],
    products: fuzzTargets.map { .executable(name: $0.name, targets: [$0.name]) },
    dependencies: [.package(name: "Tactile", path: "..")],
    targets: driverTargets + fuzzTargets,
    swiftLanguageModes: [.v6]
)

// The root package's upcoming features, for every Swift target.
for target in package.targets where target.name != "FuzzDriver" {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
