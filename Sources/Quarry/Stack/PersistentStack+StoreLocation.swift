import Foundation

extension PersistentStack {
    /// `$XDG_DATA_HOME/quarry/<name>.sqlite` (`~/.local/share/quarry/<name>.sqlite` when unset).
    public static func defaultStoreURL(name: String) -> URL {
        defaultStoreURL(name: name, type: .sqlite)
    }

    /// The default location of a store of `type`: `$XDG_DATA_HOME/quarry/<name>.sqlite`, or
    /// `<name>.jsonstore` (a folder) for the JSON store (`~/.local/share` when `XDG_DATA_HOME` is unset).
    public static func defaultStoreURL(name: String, type: StoreType) -> URL {
        defaultStoreURL(name: name, type: type, environment: ProcessInfo.processInfo.environment)
    }

    /// ``defaultStoreURL(name:type:)`` with `XDG_DATA_HOME` read from `environment` instead of
    /// the process's (so tests need not change the process-wide environment).
    static func defaultStoreURL(name: String, type: StoreType, environment: [String: String]) -> URL {
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        return base.appendingPathComponent("quarry").appendingPathComponent("\(name).\(type == .json ? "jsonstore" : "sqlite")")
    }

    /// The name a store takes by default (``Options/storeName``): the executable's.
    static let executableName = executableName(processName: ProcessInfo.processInfo.processName,
                                               arguments: CommandLine.arguments)

    /// The executable's name from the process's name, else the last path component of its
    /// first argument, else `quarry`.
    static func executableName(processName: String, arguments: [String]) -> String {
        if !processName.isEmpty { return processName }
        let launched = arguments.first.flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0).lastPathComponent } ?? ""
        return launched.isEmpty || launched == "/" ? "quarry" : launched
    }
}

extension PersistentStack.Options {
    /// Where the store lives: ``storeURL``, else the default location of ``storeName`` for
    /// ``storeType`` under `environment`'s `XDG_DATA_HOME`.
    func resolvedStoreURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        storeURL ?? PersistentStack.defaultStoreURL(name: storeName, type: storeType, environment: environment)
    }

    /// These options for a stack set up from the model named `model`: the store takes the
    /// model's name unless the caller chose a store name (or a store URL, which wins anyway).
    func namingStore(afterModel model: String) -> Self {
        var options = self
        if options.chosenStoreName == nil { options.chosenStoreName = model }
        return options
    }

    /// Where the store file or folder these options name lives, ready for a back end to open:
    /// its folder made, and the seed copied in when nothing is there yet (a first run).
    /// - Throws: the file system's error when the folder cannot be made or the seed copied.
    func preparedStoreLocation() throws -> URL {
        let url = resolvedStoreURL()
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try copySeed(to: url)
        return url
    }

    /// Copies ``seedStoreURL`` to `url` when set and nothing is there (a first run, or a store
    /// just deleted for ``PersistentStack/ModelMismatchDecision/replace``).
    func copySeed(to url: URL) throws {
        if let seed = seedStoreURL, !FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.copyItem(at: seed, to: url)
        }
    }
}
