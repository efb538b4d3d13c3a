/// One section of a fetched-results controller: its name, index title and size.
public struct SectionInfo: Sendable, Equatable, CustomStringConvertible {
    /// The section's name: the section key's value as text (`""` for nil).
    public var name: String
    /// The index title: the capitalized first letter of the name.
    public var indexTitle: String
    /// How many objects the section holds.
    public var numberOfObjects: Int

    /// The default index title for a section name (Core Data's rule).
    public static func indexTitle(for name: String) -> String {
        name.first.map { String($0).uppercased() } ?? ""
    }

    public var description: String { "\(name) (\(numberOfObjects))" }
}

extension Value {
    /// The text a section name shows for this value.
    var sectionName: String {
        switch self {
        case .null: return ""
        case .string(let s): return s
        default: return description
        }
    }
}
