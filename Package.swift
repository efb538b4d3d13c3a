// swift-tools-version:6.1
import Foundation
import PackageDescription

/// Quarry: a Core Data-style object graph over SQLite for Swift on Linux, with a terminal browser.
///
/// Module layering (dependencies point down only) is described in docs/architecture.md:
/// `quarry` → `QuarryBrowser` → (`QuarryTUI`, `CursesBackend`) → `Quarry` → GRDB.
let package = Package(
    name: "Quarry",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Quarry", targets: ["Quarry"]),
        .executable(name: "quarry", targets: ["quarry"]),
        .executable(name: "quarry-bench", targets: ["quarry-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        // The `generate-documentation` command only (scripts/docs.sh): a plugin, linked into no target.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Cache-line prefetch hints for the fetched-results index (C: Swift has no prefetch).
        .target(name: "CPrefetch"),
        // The system zlib, for the raw DEFLATE around a Core Data store's Z_MODELCACHE.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // libpq, PostgreSQL's own client library, under the PostgreSQL store (Debian's libpq-dev
        // for <postgresql/libpq-fe.h>). Not linked: opened on first use (dlopen), so a launch
        // that never touches PostgreSQL does not load it and the twenty libraries it needs.
        .target(name: "CLibPQ"),
        .target(
            name: "Quarry",
            dependencies: [
                "CPrefetch",
                "CZlib",
                "CLibPQ",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            // MATCHES runs on the toolchain's ICU (the engine under NSRegularExpression) for its
            // step budget; Foundation loads the library already, this names it to the linker.
            linkerSettings: [.linkedLibrary("_FoundationICU", .when(platforms: [.linux]))]
        ),
        .target(name: "QuarryTUI", dependencies: [.product(name: "TOMLKit", package: "TOMLKit")]),
        // ncursesw's headers and library are at the standard paths on Debian; the module map links it.
        .systemLibrary(name: "CNCurses", providers: [.apt(["libncursesw5-dev"])]),
        .target(name: "CursesBackend", dependencies: ["QuarryTUI", "CNCurses"]),
        .target(name: "QuarryBrowser", dependencies: ["Quarry", "QuarryTUI", .product(name: "TOMLKit", package: "TOMLKit")]),
        .target(name: "QuarryTestSupport", dependencies: ["Quarry", "CZlib", .product(name: "GRDB", package: "GRDB.swift")]),
        // The demo's model, seeder and live importer (a library so tests reach them).
        .target(name: "QuarryDemo", dependencies: ["Quarry"]),
        .executableTarget(
            name: "quarry",
            dependencies: [
                "Quarry", "QuarryBrowser", "CursesBackend", "QuarryDemo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "quarry-bench",
            dependencies: [
                "Quarry",
                // `filter-scale`: a demo store, and the filter prompt taking a paste.
                "QuarryDemo", "QuarryTUI",
                // `freq-first-screen`, `freq-live`: the browser's frequency view, in memory.
                "QuarryBrowser",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                // The raw side of `pg-import`.
                "CLibPQ",
            ]
        ),
        .testTarget(
            name: "QuarryTests",
            dependencies: [
                "Quarry", "QuarryDemo", "QuarryTestSupport", "CLibPQ", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .executableTarget(name: "curses-smoke", dependencies: ["CursesBackend", "QuarryTUI"]),
        .testTarget(name: "QuarryTUITests", dependencies: ["QuarryTUI"]),
        .testTarget(name: "CursesBackendTests", dependencies: ["CursesBackend", "QuarryTUI", "QuarryTestSupport"]),
        .testTarget(name: "QuarryDemoTests", dependencies: ["QuarryDemo", "Quarry", "QuarryTestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        // The built `quarry` binary end to end, and its own types (`StoreLocation`) directly.
        // Goldens/: the golden files the tests compare with (docs/goldens.md), not sources.
        .testTarget(name: "QuarryCommandTests", dependencies: ["quarry", "QuarryDemo", "Quarry", "QuarryTestSupport"], exclude: ["Goldens"]),
        // QuarryDemo: the screen goldens open the browser on the demo's own store.
        .testTarget(name: "QuarryBrowserTests", dependencies: ["QuarryBrowser", "QuarryTUI", "Quarry", "QuarryDemo", "QuarryTestSupport"],
                    exclude: ["Goldens"]),
    ],
    swiftLanguageModes: [.v6]
)

// `QUARRY_FUZZ=1 swift build --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer --product quarry-fuzz`
// (scripts/fuzz.sh) adds the libFuzzer target: it has no Swift `main` (CFuzzMain starts libFuzzer's
// driver), so it exists only in that build and never slows or breaks the normal one.
if ProcessInfo.processInfo.environment["QUARRY_FUZZ"] == "1" {
    package.targets.append(.target(name: "CFuzzMain", path: "Fuzz/CFuzzMain"))
    package.targets.append(.executableTarget(
        name: "quarry-fuzz",
        dependencies: ["Quarry", "QuarryTUI", "CFuzzMain"],
        path: "Fuzz/QuarryFuzz",
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]
    ))
    package.products.append(.executable(name: "quarry-fuzz", targets: ["quarry-fuzz"]))
}

// `QUARRY_TSAN=1 swift test --sanitize=thread --scratch-path .build-tsan` (scripts/test.sh) builds
// only what the Thread Sanitizer step runs: the engine's and the demo's tests. The terminal, the
// browser, the command line and their tests (TOMLKit's C++, swift-argument-parser) are left out
// of that second, instrumented build (measured on a fresh clone: the step from 532 s to 410 s).
if ProcessInfo.processInfo.environment["QUARRY_TSAN"] == "1" {
    let engineOnly: Set<String> = ["CPrefetch", "CZlib", "CLibPQ", "Quarry", "QuarryTestSupport", "QuarryDemo", "QuarryTests", "QuarryDemoTests"]
    package.targets.removeAll { !engineOnly.contains($0.name) }
    package.products.removeAll { $0.name != "Quarry" }
}
