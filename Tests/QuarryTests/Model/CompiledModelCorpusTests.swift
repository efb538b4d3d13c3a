import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// The corpus's compiled `.momd` bundles against the `.xcdatamodeld` they were compiled from:
/// every version both hold gives the same model.
@Suite("Compiled models from the corpus")
struct CompiledModelCorpusTests {
    /// A model as `quarry model` lists it: entities with their attributes and relationships.
    static func summary(_ model: ManagedObjectModel) -> [String] {
        model.entities.sorted { $0.name < $1.name }.flatMap { entity -> [String] in
            ["\(entity.name)\(entity.parentName.map { " : \($0)" } ?? "")\(entity.isAbstract ? " abstract" : "")"]
                + entity.attributes.map { a in
                    "  \(a.name) \(a.type.rawValue)\(a.isOptional ? "?" : "")\(a.isTransient ? " transient" : "") default=\(a.defaultValue.map { "\($0)" } ?? "-")"
                }
                + entity.relationships.map { r in
                    "  \(r.name) -> \(r.destination)\(r.isToMany ? " to-many" : "")\(r.isOrdered ? " ordered" : "") inverse=\(r.inverse ?? "-") \(r.deleteRule) \(r.isOptional ? "optional" : "required")"
                }
        }
    }

    @Test("every version of each .momd equals its .xcdatamodeld version")
    func sameModels() throws {
        let pairs = ModelCorpus.compiledBundles()
        guard !pairs.isEmpty else {
            print("skipped: no corpus with a compiled .momd beside its .xcdatamodeld (../shared/corpus)")
            return
        }
        for (compiled, source) in pairs {
            let fromMomd = try ModelVersionHistory.load(compiledBundleAt: compiled)
            let fromXcode = try ModelVersionHistory.load(xcodeBundleAt: source)
            var compared = 0
            for version in fromMomd.versions {
                guard let twin = fromXcode.versions.first(where: { $0.name == version.name }) else { continue }
                compared += 1
                let a = Self.summary(version.model), b = Self.summary(twin.model)
                #expect(a == b, "\(compiled.lastPathComponent) version \(version.name): \(zip(a, b).first { $0 != $1 }.map { "\($0) ≠ \($1)" } ?? "\(a.count) vs \(b.count) lines")")
                #expect(version.model.versionHash == twin.model.versionHash, "\(version.name): version hashes differ")
            }
            #expect(compared > 0, "\(compiled.path): no version in common with \(source.path)")
            #expect(fromMomd.skipped.isEmpty, "\(fromMomd.skipped)")
        }
    }
}
