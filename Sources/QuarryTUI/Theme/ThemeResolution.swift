/// The theme to draw with, and what went wrong finding the one the user asked for.
///
/// ``ThemeLoader/resolve(name:environment:searchDirectories:)`` never fails: when the requested
/// theme is missing or malformed, ``theme`` is ``Theme/builtInDefault`` and ``problem`` says why,
/// so the browser can start and show the problem in its status line.
public struct ThemeResolution: Sendable {
    /// The theme to use.
    public var theme: Theme
    /// Why the requested theme was not used, or `nil` when it was.
    public var problem: ThemeError?

    /// Creates a resolution.
    public init(theme: Theme, problem: ThemeError? = nil) {
        self.theme = theme
        self.problem = problem
    }
}
