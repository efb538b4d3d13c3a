/// The error that stopped `quarry demo`'s live importer, reported when the command ends.
struct DemoImportStopped: Error, CustomStringConvertible {
    /// The importer's error message.
    var message: String
    /// "import stopped: <message>".
    var description: String { "import stopped: \(message)" }
}
