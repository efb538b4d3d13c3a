import Foundation

/// The contents of a JSON store's `_Metadata.json`: who the store is, which model made it, the
/// last primary key handed out per root entity, and the generation of the last committed save.
///
/// ```json
/// {
///   "format": "Quarry JSON store",
///   "formatVersion": 1,
///   "storeUUID": "4F0C…",
///   "generation": 3,
///   "modelVersionHash": "9a1e…",
///   "keyCounters": {"Sector": 2, "Ticker": 5},
///   "model": { "entities": [ … ] }
/// }
/// ```
/// `model` is the JSON model format (`docs/json-model.md`), so the folder is readable without
/// the application's model file. A hand-written folder (a fixture) may leave out `model` and
/// `modelVersionHash` (the opener then gives the model), `keyCounters` and `formatVersion`.
///
/// Any other key is the application's own (M3CoreData's store metadata holds an application's
/// keys beside the store's): it is kept as written, in its order, and written back by every save.
struct JSONStoreMetadata: Equatable {
    /// A key of the application's own and its value's JSON text, as the file had them.
    struct ApplicationKey: Equatable, Sendable {
        var key: String
        var jsonText: String
    }

    /// The value of `"format"` that marks a folder as a Quarry JSON store.
    static let formatName = "Quarry JSON store"
    static let formatVersion: Int64 = 1

    var identifier: UUID
    /// Bumped by every committed save; tells a committed save from an interrupted one.
    var generation: Int64
    /// `nil` when the file leaves the model out.
    var modelVersionHash: String?
    /// Last primary key handed out, per root entity name.
    var keyCounters: [String: Int64]
    /// The model as JSON model text (written from the store's model; empty when read).
    var modelText: String
    /// The application's own keys, in the file's order.
    var applicationKeys: [ApplicationKey] = []

    /// The file's text: fixed key order, the model last and indented with the rest.
    func text() -> String {
        let counters = keyCounters.keys.sorted().map { "\(JSONModelValues.quoted($0)): \(keyCounters[$0]!)" }
        let model = modelText.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "\n", with: "\n  ")
        return """
            {
              "format": \(JSONModelValues.quoted(Self.formatName)),
              "formatVersion": \(Self.formatVersion),
              "storeUUID": "\(identifier.uuidString)",
              "generation": \(generation),
              "modelVersionHash": \(JSONModelValues.quoted(modelVersionHash ?? "")),
              "keyCounters": {\(counters.joined(separator: ", "))},\(applicationKeys.map { "\n  \(JSONModelValues.quoted($0.key)): \($0.jsonText)," }.joined())
              "model": \(model)
            }

            """
    }

    /// Reads `file`, and with it the stored model (`nil` when the file has none).
    /// - Throws: ``JSONStoreError/notAJSONStore(path:)`` when the file is JSON but not a store's
    ///   metadata (no `"format"` marker), ``JSONStoreError/malformedFile(path:line:column:reason:)``
    ///   naming the line and column of any other fault (the model's included).
    static func decode(_ file: JSONStoreFileText, folder: String) throws -> (JSONStoreMetadata, ManagedObjectModel?) {
        guard case .object(let members) = file.document.root.kind,
              let format = members.first(where: { $0.key == "format" })?.value,
              case .string(Self.formatName) = format.kind
        else { throw JSONStoreError.notAJSONStore(path: folder) }
        var fields: [String: JSONDocument.Node] = [:]
        var applicationKeys: [ApplicationKey] = []
        for member in members {
            switch member.key {
            case "format", "storeUUID", "generation", "modelVersionHash", "keyCounters", "model", "formatVersion":
                fields[member.key] = member.value
            default:
                applicationKeys.append(ApplicationKey(key: member.key, jsonText: file.document.sourceText(of: member.value)))
            }
        }
        func required(_ key: String) throws -> JSONDocument.Node {
            guard let node = fields[key] else { throw file.fault(file.document.root, "the store metadata has no '\(key)'") }
            return node
        }
        if let version = fields["formatVersion"], try file.integer(version, "formatVersion") > formatVersion {
            throw file.fault(version, "format version \(try file.integer(version, "formatVersion")) is newer than this Quarry reads (\(formatVersion))")
        }
        let uuidNode = try required("storeUUID")
        guard let identifier = UUID(uuidString: try file.string(uuidNode, "storeUUID")) else {
            throw file.fault(uuidNode, "storeUUID is not a UUID")
        }
        let generation = try file.integer(try required("generation"), "generation")
        let hash = try fields["modelVersionHash"].map { try file.string($0, "modelVersionHash") }
        var counters: [String: Int64] = [:]
        if let node = fields["keyCounters"] {
            for member in try file.members(of: node, "keyCounters") {
                counters[member.key] = try file.integer(member.value, "the key counter of \(member.key)")
            }
        }
        var model: ManagedObjectModel?
        if let modelNode = fields["model"] {
            do {
                model = try ManagedObjectModel(ModelDefinition(jsonText: JSONStoreFileText.text(of: modelNode), path: file.path), namePolicy: .anyText)
            } catch let error as ModelError {
                throw file.fault(modelNode, "the stored model: \(error)")
            }
        }
        let metadata = JSONStoreMetadata(identifier: identifier, generation: generation, modelVersionHash: hash ?? model?.versionHash,
                                         keyCounters: counters, modelText: "", applicationKeys: applicationKeys)
        return (metadata, model)
    }
}
