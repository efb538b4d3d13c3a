/// A version of a model bundle that could not be loaded, kept out of a ``ModelVersionHistory``
/// so that the versions around it still migrate (Core Data too loads only the versions it
/// needs).
///
/// ```swift
/// for skipped in history.skipped { print("warning: \(skipped)") }
/// ```
public struct SkippedVersion: Sendable, Equatable, CustomStringConvertible {
    /// The version's name (`Model 3` for `Model 3.xcdatamodel`).
    public var name: String
    /// The version's folder (the `.xcdatamodel`).
    public var path: String
    /// Why it could not be loaded (the loader's error, which names the file and line).
    public var reason: String

    /// Creates a record of a skipped version.
    public init(name: String, path: String, reason: String) {
        self.name = name
        self.path = path
        self.reason = reason
    }

    public var description: String {
        "\(path): version '\(name)' does not load and is skipped (migrations go around it): \(reason)"
    }
}
