import Foundation

/// Why `quarry demo` refuses a store. Every case names the file.
public enum DemoError: Error, Equatable, CustomStringConvertible {
    /// The seed of the store at `path` started and did not finish (the process was killed):
    /// `written` of `target` tickers are stored. The store is not reused.
    case interruptedSeed(path: String, written: Int, target: Int)
    /// The store at `path` holds tickers but no demo state: the demo did not seed it.
    case unrecordedSeed(path: String, tickers: Int)

    /// A message naming the file, what is wrong and what to do.
    public var description: String {
        switch self {
        case .interruptedSeed(let path, let written, let target):
            return "\(path): the demo seed was interrupted (\(written) of \(target) tickers written); "
                + "the store is incomplete and is not reused: delete it or pass another --store"
        case .unrecordedSeed(let path, let tickers):
            return "\(path): holds \(tickers) tickers but no record of a finished demo seed; "
                + "it is not reused: delete it or pass another --store"
        }
    }
}
