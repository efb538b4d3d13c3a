/// Where a model file declares each entity and property (and some of their keys), recorded while
/// the file is decoded, so that faults found afterwards (by the model resolver, by the
/// validation-rule check) name the line and column of the declaration at fault.
///
/// Positions are whatever the format knows: byte offsets for JSON, lines for Xcode's XML. Only
/// read on the thread that decodes the file.
final class ModelSourcePositions {
    private var positions: [String: Int] = [:]

    /// Records `position` for `entity`, its `property`, or that property's `key`; a later
    /// declaration of the same name wins (a duplicate is reported where it repeats).
    func record(_ position: Int, entity: String, property: String? = nil, key: String? = nil) {
        positions[Self.name(entity, property, key)] = position
    }

    /// The recorded position of `key`, else of `property`, else of `entity`.
    func position(entity: String, property: String? = nil, key: String? = nil) -> Int? {
        if let key, let found = positions[Self.name(entity, property, key)] { return found }
        if let property, let found = positions[Self.name(entity, property, nil)] { return found }
        return positions[Self.name(entity, nil, nil)]
    }

    private static func name(_ entity: String, _ property: String?, _ key: String?) -> String {
        // No name holds a NUL, so these names cannot collide.
        entity + "\u{0}" + (property ?? "") + "\u{0}" + (key ?? "")
    }
}
