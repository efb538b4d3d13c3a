extension ModelWarning {
    /// The name of the warning for an Xcode model element Quarry does not use (diagram layout,
    /// user info, an element it does not know).
    ///
    /// The element and everything inside it is skipped; the message gives the file and line.
    public static let xcodeIgnoredElement = "xcode.ignored-element"

    /// The name of the warning earlier versions gave for a derived attribute (`derived="YES"`),
    /// which they skipped. Derived attributes are now read (``AttributeDescription/derivationExpression``);
    /// the name is kept for callers that filter on it, and no loader gives it.
    public static let xcodeDerivedAttribute = "xcode.derived-attribute"

    /// The name of the warning for a fetch index part Quarry cannot reproduce exactly: an
    /// expression element (skipped), an R-tree index or a descending order (made a plain index).
    public static let xcodeFetchIndex = "xcode.fetch-index"

    /// The name of the warning for a default value Core Data accepts although it does not fit
    /// the attribute's type as written (a Boolean `"1.0"`, an integer `"YES"`, any Binary default):
    /// it is read the way Core Data reads it, and the message says how. A default that fits no
    /// reading (a UUID attribute's default that is not a UUID) is dropped with this warning.
    public static let xcodeDefaultValue = "xcode.default-value"

    /// A warning located at `line` of `path`.
    static func xcode(_ name: String, path: String, line: Int, _ detail: String) -> ModelWarning {
        ModelWarning(name: name, message: "\(path)\(line > 0 ? ":\(line)" : ""): \(detail)")
    }
}
