import Foundation
import Quarry

/// The many-entity model of `scripts/bench-commands.sh`'s `model-10k` figures, written by
/// `quarry-bench write-scale-model N PATH [--extra]` in the JSON model format.
///
/// Entities `E0` … `E(N-1)`; every tenth is a root and the nine after it a chain of
/// sub-entities (`E(i)` inherits from `E(i-1)`), so inheritance, inherited properties and
/// shared tables are all exercised. Each entity declares two attributes and a pair of
/// relationships to its neighbours (`next<i>` to-one to `E(i+1)`, inverse `prev<i+1>`, a
/// to-many back), so every relationship has an inverse to check and a foreign key to index.
/// `--extra` adds one optional attribute to the middle entity: the migration of the figures.
enum ScaleModel {
    static func definition(entities n: Int, extra: Bool) -> ModelDefinition {
        let entities = (0..<n).map { i -> EntityDefinition in
            let next = (i + 1) % n, previous = (i + n - 1) % n
            var attributes = [
                AttributeDescription(name: "a\(i)", type: .string),
                AttributeDescription(name: "n\(i)", type: .integer64, defaultValue: .integer(0)),
            ]
            if extra && i == n / 2 { attributes.append(AttributeDescription(name: "extra", type: .string)) }
            return EntityDefinition(
                name: "E\(i)", parent: i % 10 == 0 ? nil : "E\(i - 1)", attributes: attributes,
                relationships: [
                    RelationshipDescription(name: "next\(i)", destination: "E\(next)", inverse: "prev\(next)"),
                    RelationshipDescription(name: "prev\(i)", destination: "E\(previous)", inverse: "next\(previous)", isToMany: true),
                ])
        }
        return ModelDefinition(entities: entities)
    }

    /// `write-scale-model N PATH [--extra]`: writes the model, checked by loading it first.
    static func write(_ arguments: [String]) throws {
        guard arguments.count >= 2, let n = Int(arguments[0]), n >= 10 else {
            throw BenchError.check("usage: quarry-bench write-scale-model N PATH [--extra] (N ≥ 10)")
        }
        let definition = definition(entities: n, extra: arguments.dropFirst(2).contains("--extra"))
        _ = try ManagedObjectModel(definition)
        try Data(definition.jsonText().utf8).write(to: URL(fileURLWithPath: arguments[1]), options: .withoutOverwriting)
    }
}
