import Foundation
import Quarry
import QuarryTUI

extension Browser {
    /// `x`: asks where to export the view (entity, filter, sort, visible columns), or only the
    /// selected rows when rows are selected, suggesting `<Entity>.csv` (`<Entity>-selected.csv`)
    /// in the current folder.
    func beginExport() {
        guard exports.pending == nil else {
            message = ("an export is running (Esc cancels it)", true)
            return
        }
        let selected = table.selection.count
        overlay = .prompt(PromptState(kind: .export, text: "\(table.entity.name)\(selected > 0 ? "-selected" : "").csv"))
        if selected > 0 { message = ("the export writes the \(selected) selected rows", false) }
    }

    /// Starts exporting the view to `text` (a path; `~` and relative paths allowed). The format
    /// follows the extension: `.jsonl` JSON Lines, `.json` a JSON array, anything else CSV.
    /// An existing file is replaced only once the user says yes to a question (`x`, `:w`) or
    /// with `replacing` (`:w!`); a FIFO or a device is written in place; a folder, a socket, a
    /// block device or a symbolic link to nothing is refused.
    /// Returns an error message for the prompt when the export cannot start.
    func startExport(to text: String, replacing: Bool = false) -> String? {
        let url: URL
        switch exportDestination(text, replacing: replacing, again: { [weak self] in self?.startExport(to: text, replacing: true) }) {
        case .refused(let error): return error
        case .asking: return nil
        case .ready(let ready): url = ready
        }
        let predicate: ObjectPredicate?
        do {
            predicate = try table.query.filter.map { try ObjectPredicate(format: $0) }
        } catch {
            return "the filter does not parse: \(error)"
        }
        let columns = shownColumns.map { column -> ExportColumn in
            switch column.source {
            case .attribute(let name, _): return ExportColumn(name)
            case .toOne(let relationship, let displayKey):
                return ExportColumn(displayKey.map { "\(relationship).\($0)" } ?? relationship, header: column.title)
            }
        }
        let formatter = ExportOperation.formatter(forPathExtension: url.pathExtension, columns: columns)
        let operation = ExportOperation(stack: stack, entityName: table.entity.name, predicate: predicate,
                                        sortDescriptors: table.query.effectiveSort,
                                        objectIDs: table.selection.isEmpty ? nil : selectedInOrder,
                                        destination: .file(url), formatter: formatter)
        operation.progressHandler = { [weak self] progress in
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    guard let self, self.exports.pending?.operation === operation else { return }
                    self.exports.pending?.progress = progress
                    self.needsDisplay()
                }
            }
        }
        operation.completionBlock = { [weak self] in
            DispatchQueue.main.async {
                MainActor.assumeIsolated { self?.finishExport(operation, path: url.path) }
            }
        }
        exports.pending = PendingExport(path: url.path, operation: operation)
        message = nil
        exports.queue.addOperation(operation)
        needsDisplay()
        return nil
    }

    /// Where an export named `text` goes, once checked.
    enum ExportDestinationCheck {
        /// Write to this file.
        case ready(URL)
        /// A question (replace the file?) is on screen; `again` runs on yes.
        case asking
        /// Not possible: the message for the prompt.
        case refused(String)
    }

    /// Checks the path `text` (`~` and relative paths allowed) for an export: an existing file
    /// is replaced only once the user says yes (`again` then runs, its error shown) or with
    /// `replacing`; a FIFO or a device is written in place; a folder, a socket, a block device,
    /// a symbolic link to nothing or a missing folder is refused.
    func exportDestination(_ text: String, replacing: Bool, again: @escaping @MainActor () -> String?) -> ExportDestinationCheck {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return .refused("give a file name") }
        let url = URL(fileURLWithPath: (trimmed as NSString).expandingTildeInPath)
        let found = FileKind(path: url.path)
        switch found.kind {
        case .directory: return .refused("\(url.path) is a folder")
        case .blockDevice, .socket: return .refused("\(url.path) is \(found); name a file")
        case .missing where found.isSymbolicLink: return .refused("\(url.path) is a symbolic link to a missing file")
        case .regularFile where !replacing:
            let previous = overlay
            overlay = .confirm(Confirmation(
                title: "Replace?", lines: ["\(url.path) exists. Replace it with the export? (y/n)"],
                onYes: { [weak self] in
                    guard let self, let error = again() else { return }
                    self.message = (error, true)
                },
                onNo: { [weak self] in
                    if case .text? = previous { self?.overlay = previous }
                    self?.message = ("not exported; \(url.path) is as it was", false)
                }))
            needsDisplay()
            return .asking
        default: break
        }
        guard FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path) else {
            return .refused("no such folder: \(url.deletingLastPathComponent().path)")
        }
        return .ready(url)
    }

    /// The status line's text for a running export.
    var exportStatus: String? {
        guard let export = exports.pending else { return nil }
        let done = export.progress.map { " \($0.rowsDone)/\($0.totalRows) rows" } ?? ""
        return "exporting to \(export.path)\(done)… (Esc cancels)"
    }

    /// Cancels the running export, if any; returns whether there was one.
    @discardableResult
    func cancelExport() -> Bool {
        guard let export = exports.pending else { return false }
        export.operation.cancel()
        return true
    }

    /// Waits until no export runs (tests).
    public func exportsSettled() async {
        while exports.pending != nil {
            await exports.waiters.wait()
        }
    }

    private func finishExport(_ operation: ExportOperation, path: String) {
        guard exports.pending?.operation === operation else { return }
        exports.pending = nil
        if operation.isCancelled {
            message = ("export cancelled; nothing written to \(path)", false)
        } else if let error = operation.error {
            message = ("export failed: \(error)", true)
        } else {
            message = ("exported \(operation.statistics.rowsWritten) rows to \(path)", false)
        }
        needsDisplay()
        exports.waiters.resumeAll()
    }
}
