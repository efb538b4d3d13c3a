/// The version of Quarry: `quarry --version` prints it, and a new store records it in its
/// metadata (`quarryVersion`) beside its model.
public enum QuarryVersion {
    /// The version, `major.minor.patch`.
    public static let string = "0.1.0"
}
