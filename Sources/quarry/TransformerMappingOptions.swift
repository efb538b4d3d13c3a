import ArgumentParser
import Quarry

/// `--transformer NAME=BUILTIN`, on every command that loads a model: reads the values of a
/// model's value transformer `NAME` (an app's own, which does not exist here) through a
/// built-in one.
struct TransformerMappingOptions: ParsableArguments {
    @Option(
        name: .customLong("transformer"),
        help: ArgumentHelp(
            "Read the model's value transformer NAME as a built-in one: keyed-archive (keyed archives and property lists; read only) or property-list. Repeatable.",
            valueName: "NAME=BUILTIN"))
    var mappings: [String] = []

    /// Checks every mapping and registers it. Done here, which ArgumentParser runs right after
    /// parsing and before any command's `run()`, so each command needs only the option group:
    /// the model is loaded after its transformers are in place.
    mutating func validate() throws {
        for mapping in mappings {
            let parts = mapping.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw ValidationError("--transformer \(mapping): expected NAME=BUILTIN, e.g. ColorsTransformer=keyed-archive")
            }
            do {
                try AttributeTransformers.map(parts[0], to: parts[1])
            } catch {
                throw ValidationError("--transformer \(mapping): \(error)")
            }
        }
    }
}
