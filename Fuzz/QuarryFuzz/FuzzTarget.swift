import Foundation
import Quarry
import QuarryTUI

/// The parsers `quarry-fuzz` feeds: each takes arbitrary bytes and must throw or return, never
/// crash or hang. Chosen with the environment variable `QUARRY_FUZZ_TARGET`.
enum FuzzTarget: String, CaseIterable {
    /// `ObjectPredicate(format:)`, then the parsed predicate's description.
    case predicate
    /// The `contents` XML of an `.xcdatamodel`, then a model built from it.
    case xcode
    /// A JSON model file, then a model built from it.
    case json
    /// A TOML theme file (its `inherits` resolved to the default theme).
    case theme
    /// A Core Data `Z_MODELCACHE` blob (raw DEFLATE around a keyed archive), the same bytes
    /// as an uncompressed keyed archive, and as a `Transformable` value of a Core Data store
    /// (the `Quarry.CoreDataArchive` transformer).
    case modelcache
    /// The compiled model loader (`.mom` bytes).
    case mom

    /// Runs the target on one input; errors are the expected outcome for bad input.
    func run(_ data: Data) {
        switch self {
        case .predicate:
            if let predicate = try? ObjectPredicate(format: String(decoding: data, as: UTF8.self)) {
                _ = String(describing: predicate)
            }
        case .xcode:
            if let definition = try? ModelDefinition(xcodeContents: data, path: "fuzz.xcdatamodel/contents") {
                _ = try? ManagedObjectModel(definition)
            }
        case .json:
            if let definition = try? ModelDefinition(jsonText: String(decoding: data, as: UTF8.self), path: "fuzz.json") {
                _ = try? ManagedObjectModel(definition)
            }
        case .theme:
            _ = try? ThemeLoader.parse(String(decoding: data, as: UTF8.self), file: "fuzz.toml") { _ in Theme.builtInDefault }
        case .modelcache:
            // A small inflate bound keeps each run fast; the bound itself is under test.
            if let model = try? CoreDataModelCache.model(fromCompressedArchive: data, inflatedLimit: 1 << 20) {
                _ = String(describing: model)
            }
            if let model = try? CoreDataModelCache.model(fromArchive: data) {
                _ = String(describing: model)
            }
            if let value = try? AttributeTransformers.transformer(named: "Quarry.CoreDataArchive")?.value(from: data) {
                _ = value.jsonText
            }
        case .mom:
            if let model = try? ManagedObjectModel.load(compiledModelData: data, path: "fuzz.mom") {
                _ = String(describing: model)
            }
        }
    }

    /// The target named by `QUARRY_FUZZ_TARGET`; exits with a message when it names none.
    static let selected: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["QUARRY_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            let names = allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(Data("quarry-fuzz: set QUARRY_FUZZ_TARGET to one of \(names) (got '\(name)')\n".utf8))
            exit(2)
        }
        return target
    }()
}
