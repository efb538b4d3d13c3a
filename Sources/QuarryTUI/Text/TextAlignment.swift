/// Where text sits in a wider space.
public enum TextAlignment: Sendable {
    /// Against the left edge.
    case leading
    /// Against the right edge (numbers).
    case trailing
}
