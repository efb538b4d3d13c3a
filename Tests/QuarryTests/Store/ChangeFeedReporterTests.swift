import Foundation
import Synchronization
import Testing
@testable import Quarry

@Suite("Change feed reporter: every failure on the remote path is delivered, once per run, then the recovery")
struct ChangeFeedReporterTests {
    /// What a reporter delivered, in order, as short labels.
    final class Delivered: Sendable {
        let labels = Mutex<[String]>([])
        func record(_ commit: RemoteCommit) {
            let label: String
            switch commit {
            case .merge: label = "merge"
            case .external: label = "external"
            case .externalFollowUp: label = "externalFollowUp"
            case .ownOnly: label = "ownOnly"
            case .none: label = "none"
            case .failed(let error, let refetch): label = "failed(\(error.reason), refetch: \(refetch))"
            case .recovered: label = "recovered"
            }
            labels.withLock { $0.append(label) }
        }
    }

    @Test("a failure repeated is reported once (a follow-up re-fetch each time it asks for one); a read that succeeds reports the recovery")
    func failuresOncePerRunThenRecovery() {
        let delivered = Delivered()
        let reporter = ChangeFeedReporter { delivered.record($0) }
        let gone = RemoteChangeError.historyUnreadable(store: "s", reason: "gone")
        reporter.read(.none)
        reporter.failed(gone, refetch: true)
        reporter.failed(gone, refetch: true)
        reporter.failed(gone, refetch: false)
        reporter.failed(.changeCheckFailed(store: "s", reason: "busy"), refetch: false)
        reporter.pass(.external)
        reporter.read(.ownOnly)
        reporter.read(.external)
        reporter.failed(gone, refetch: false)
        #expect(delivered.labels.withLock { $0 } == [
            "failed(gone, refetch: true)", "externalFollowUp",
            "failed(busy, refetch: false)", "external",
            "recovered", "external",
            "failed(gone, refetch: false)",
        ])
    }

    @Test("a remote change error names its store and reason in its description")
    func errorDescriptions() {
        let errors: [RemoteChangeError] = [
            .historyUnreadable(store: "/a.sqlite", reason: "no such table"),
            .objectsUnreadable(store: "/a.sqlite", reason: "disk I/O error"),
            .changeCheckFailed(store: "/a.sqlite", reason: "locked"),
            .listenerDisconnected(store: "postgres://q@h/d?schema=s", reason: "connection refused"),
        ]
        for error in errors {
            #expect(error.description.contains(error.store) && error.description.contains(error.reason))
        }
    }
}
