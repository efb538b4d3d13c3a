import Foundation

/// The tombstone of a deleted object in persistent history: the values of its attributes marked
/// ``AttributeDescription/preservesValueInHistoryOnDeletion``, kept as a JSON object (the JSON
/// store's value forms) in the change row of the deletion. The same coding in every back end.
enum HistoryTombstone {
    /// The tombstone JSON of a row about to be deleted: the values of the entity's attributes
    /// marked ``AttributeDescription/preservesValueInHistoryOnDeletion`` (`nil` when none are).
    static func encode(_ snapshot: Snapshot, entity: EntityDescription, attributes: [Int]) -> String? {
        guard !attributes.isEmpty else { return nil }
        let pairs = attributes.map { JSONModelValues.quoted(entity.attributes[$0].name) + ": " + JSONStoreValue.encode(snapshot.values[$0]) }
        return "{" + pairs.joined(separator: ", ") + "}"
    }

    /// The values of a tombstone's JSON, read as the current model's attributes of `entity`.
    static func decode(_ json: String, entity: EntityDescription) -> [String: Value] {
        // Quarry wrote the text (``encode``); text it cannot read gives no preserved values,
        // as a deletion with none marked does: the change itself is still reported.
        guard let file = try? JSONStoreFileText(data: Data(json.utf8), path: "Z_HISTORYCHANGE.Z_TOMBSTONE"),
              case .object(let members) = file.document.root.kind else { return [:] }
        var values: [String: Value] = [:]
        for member in members {
            // A value the current model cannot take (a migration changed the attribute's type)
            // is left out, as a removed attribute's is.
            guard let a = entity.attributeIndex(member.key),
                  let value = try? JSONStoreValue.decode(member.value, attribute: entity.attributes[a], entity: entity.name, file: file) // as above
            else { continue }
            values[member.key] = value
        }
        return values
    }
}
