/// Placeholder; replaced by the context work.
open class ManagedObject: @unchecked Sendable {
    public required init() {}
}
