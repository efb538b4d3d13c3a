import Quarry
import QuarryTUI

/// An edit form bound to a `creatorContext()`: a child of the main context whose save goes to
/// main and on to disk, and which is simply dropped on discard (nothing reaches main).
///
/// Fields are typed by the model; a value that does not parse, or that the model rejects on save,
/// is shown under its field and nothing is saved. The fields the user changed are written over the
/// store's values (the creator context overwrites all the way to disk, even when the main context
/// is stale); a value another writer stored meanwhile is reported after the save as overwritten.
@MainActor
final class EditSession {
    /// One editable property.
    struct Field {
        /// The attribute or to-one relationship name.
        var key: String
        /// The attribute's type; `nil` for a to-one relationship typed by its display value.
        var type: AttributeType?
        /// Whether the value may be empty.
        var isOptional: Bool
        /// For a to-one relationship: the destination entity and the key that names its objects.
        var destination: (entity: String, displayKey: String)?
        /// The text as loaded.
        var original: String
        /// The text being edited.
        var text: String
        /// The message shown under the field.
        var error: String?
        /// The text is not editable (binary, transformable, a to-one without display key).
        var isEditable: Bool
        /// For a to-one: the object chosen in the picker, while the text still names it (so
        /// two objects of the same name are told apart).
        var picked: ObjectID?
        /// For a to-one: the object it pointed at when the form opened.
        var originalObject: ObjectID?

        var isModified: Bool { text != original || (picked != nil && picked != originalObject) }
    }

    /// The creator context.
    let context: ObjectContext
    /// The object edited (inserted for a new object).
    let object: ManagedObject
    /// Whether this form creates a new object.
    let isNew: Bool
    /// The fields in model order.
    private(set) var fields: [Field]
    /// The focused field.
    var focus = 0
    /// The caret in the focused field, in characters.
    var caret = 0
    /// A message under the fields (save failure).
    var message: String?
    /// The picker open on a to-one field (Enter on it), if any.
    var picker: ToOnePicker?
    /// Whether another writer saved the object while the form was open: the form says so (the
    /// fields you change overwrite theirs on save; the others keep their new values).
    var changedMeanwhile = false

    /// Opens a form for the object `id`, or for a new object of `entityName` when `id` is nil.
    init(stack: PersistentStack, entityName: String, id: ObjectID?) throws {
        context = stack.creatorContext()
        // The form's insert and sets are one undoable change (Browser+Undo).
        EditHistory.prepare(context)
        if let id {
            object = try context.existingObject(with: id)
            isNew = false
        } else {
            object = try context.insertObject(entityName: entityName)
            isNew = true
        }
        let entity = object.entity
        let model = context.model
        var fields: [Field] = []
        for attribute in entity.attributes where !attribute.isTransient {
            let text = ValueText.format((try? object.value(forKey: attribute.name)) ?? .null)
            fields.append(Field(key: attribute.name, type: attribute.type, isOptional: attribute.isOptional, destination: nil,
                                original: text, text: text, isEditable: ValueText.isEditable(attribute.type)))
        }
        for (index, relationship) in entity.relationships.enumerated() where !relationship.isToMany {
            let destination = model.destination(of: entity, relationship: index)
            let displayKey = ColumnSpec.displayKey(of: destination)
            var text = ""
            let related = try? object.object(forKey: relationship.name)
            if let displayKey, let related {
                text = ValueText.format((try? related.value(forKey: displayKey)) ?? .null)
            }
            fields.append(Field(key: relationship.name, type: nil, isOptional: relationship.isOptional,
                                destination: displayKey.map { (destination.name, $0) }, original: text, text: text,
                                isEditable: displayKey != nil, originalObject: related?.objectID))
        }
        self.fields = fields
        caret = fields.first?.text.count ?? 0
    }

    /// Whether any field differs from what was loaded (or the object is new).
    var hasChanges: Bool { isNew || fields.contains(where: \.isModified) }

    /// The form as a widget.
    func view(readOnlyReason: String? = nil) -> FormView {
        let title = (isNew ? "New " : "Edit ") + object.entity.name
        return FormView(title: title, fields: fields.map { field in
            var hint = field.type.map { $0.rawValue.lowercased() } ?? "→ \(field.destination?.entity ?? ""), Enter picks"
            if !field.isOptional { hint += ", required" }
            return FormField(label: field.key, text: field.text, hint: hint, error: field.error,
                             isModified: field.isModified, isEditable: field.isEditable)
        }, focus: focus, caret: caret,
        message: message ?? (changedMeanwhile ? "another writer saved this \(object.entity.name) meanwhile: the fields you change overwrite theirs, the others keep their new values" : nil))
    }

    // MARK: Typing

    /// Applies a key to the focused field. Returns false when the key is not for the form.
    func handle(_ key: Key) -> Bool {
        guard fields.indices.contains(focus) else { return false }
        if picker != nil { return handlePickerKey(key) }
        switch key {
        case .enter:
            guard let destination = fields[focus].destination, fields[focus].isEditable else { return false }
            picker = ToOnePicker(field: focus, destination: destination, text: fields[focus].text, context: context)
        case .tab, .down: moveFocus(by: 1)
        case .backTab, .up: moveFocus(by: -1)
        case .left: caret = max(0, min(caret, fields[focus].text.count) - 1)
        case .right: caret = min(fields[focus].text.count, caret + 1)
        case .home, .control("a"): caret = 0
        case .end, .control("e"): caret = fields[focus].text.count
        case .backspace: editFocusedField { $0.deleteBackward() }
        case .delete: editFocusedField { $0.deleteForward() }
        case .control("u"): editFocusedField { $0.removeAll() }
        case .character(let c): editFocusedField { $0.insert(c) }
        default:
            return false
        }
        return true
    }

    /// Keys while the to-one picker is open.
    private func handlePickerKey(_ key: Key) -> Bool {
        guard var open = picker else { return false }
        switch key {
        case .escape: picker = nil; return true
        case .down, .tab: open.selected = min(open.selected + 1, max(0, open.candidates.count - 1))
        case .up, .backTab: open.selected = max(0, open.selected - 1)
        case .enter:
            guard open.candidates.indices.contains(open.selected) else { return true }
            let choice = open.candidates[open.selected]
            fields[open.field].text = choice.name
            fields[open.field].picked = choice.id
            fields[open.field].error = nil
            caret = choice.name.count
            picker = nil
            return true
        case .backspace: open.query.deleteBackward(); open.refresh(in: context)
        case .control("u"): open.query.removeAll(); open.refresh(in: context)
        case .character(let c): open.query.insert(c); open.refresh(in: context)
        default: return true
        }
        picker = open
        return true
    }

    /// Inserts pasted text into the focused field as one edit.
    func paste(_ text: String) {
        if var open = picker {
            open.query.insert(text)
            open.refresh(in: context)
            picker = open
            return
        }
        guard fields.indices.contains(focus) else { return }
        editFocusedField { $0.insert(text) }
    }

    /// Applies `edit` to the focused field's text at the caret, by grapheme: a combining mark
    /// joins the character before it, and the caret is taken from the edited text, so it can
    /// never point past the end.
    private func editFocusedField(_ edit: (inout EditableText) -> Void) {
        guard fields[focus].isEditable else { return }
        var text = EditableText(fields[focus].text)
        text.moveCaret(to: caret)
        edit(&text)
        fields[focus].text = text.text
        caret = text.caret
        fields[focus].error = nil
        fields[focus].picked = nil
    }

    private func moveFocus(by delta: Int) {
        guard !fields.isEmpty else { return }
        checkField(at: focus)
        focus = (focus + delta + fields.count) % fields.count
        caret = fields[focus].text.count
    }

    /// Checks the changed attribute field at `index` as it is left, before any save: the text
    /// must parse, and the value must pass the model's rules and the object's own per-key
    /// validation (`validateValue(_:forKey:)`, which a subclass may override). The message
    /// goes under the field; nothing is set.
    func checkField(at index: Int) {
        guard fields.indices.contains(index), fields[index].isModified, let type = fields[index].type else { return }
        let field = fields[index]
        do {
            let value = try ValueText.parse(field.text, as: type, optional: field.isOptional)
            try object.validateValue(value, forKey: field.key)
            fields[index].error = nil
        } catch let error as ObjectValidationError {
            fields[index].error = error.failures.map(\.reason).joined(separator: "; ")
        } catch let failure as ValidationFailure {
            fields[index].error = failure.reason
        } catch {
            fields[index].error = "\(error)"
        }
    }

    // MARK: Saving

    /// What a successful save reports.
    struct SaveReport {
        /// The saved object's ID (permanent).
        var objectID: ObjectID
        /// The values another writer stored after the form opened that the save replaced
        /// (found by the store-level save), as "key: overwrote theirs with yours" texts.
        var conflicts: [String]
    }

    /// Parses every field, sets the values, validates and saves to main and on to disk.
    ///
    /// Returns nil and marks the fields at fault when a value does not parse or fails validation;
    /// nothing is saved then.
    func save() -> SaveReport? {
        message = nil
        var failed = false
        for index in fields.indices where fields[index].isModified || (isNew && fields[index].isEditable) {
            let field = fields[index]
            do {
                if let type = field.type {
                    let value = try ValueText.parse(field.text, as: type, optional: field.isOptional)
                    if isNew, field.text.isEmpty, field.original.isEmpty, value == .null { continue }
                    try object.setValue(value, forKey: field.key)
                } else if let picked = field.picked {
                    try object.setObject(try context.existingObject(with: picked), forKey: field.key)
                } else if let destination = field.destination {
                    try object.setObject(try lookUp(field.text, in: destination), forKey: field.key)
                }
            } catch {
                fields[index].error = "\(error)"
                failed = true
            }
        }
        if failed {
            focusFirstError()
            return nil
        }
        do {
            let report = try context.saveAndReport()
            let conflicts = report.overwritten.map { overwrite in
                "\(overwrite.property): overwrote \(overwriteText(overwrite.overwritten, key: overwrite.property)) written elsewhere with \(overwriteText(overwrite.written, key: overwrite.property))"
            }
            return SaveReport(objectID: object.objectID, conflicts: conflicts)
        } catch let error as ObjectValidationError {
            for failure in error.failures {
                if let index = fields.firstIndex(where: { $0.key == failure.key }) {
                    fields[index].error = failure.reason
                } else {
                    message = "\(failure.key): \(failure.reason)"
                }
            }
            if error.failures.isEmpty { message = "\(error)" }
            focusFirstError()
            return nil
        } catch {
            message = "save failed: \(error)"
            return nil
        }
    }

    private func focusFirstError() {
        if let index = fields.firstIndex(where: { $0.error != nil }) {
            focus = index
            caret = fields[index].text.count
        }
    }

    /// A reported value as the form shows it: a to-one (an object URI) by its display key.
    private func overwriteText(_ value: Value, key: String) -> String {
        guard case .uri(let uri) = value, let field = fields.first(where: { $0.key == key }), let destination = field.destination,
              let id = try? context.coordinator.objectID(forURI: uri),
              let related = try? context.existingObject(with: id), let shown = try? related.value(forKey: destination.displayKey)
        else { return ValueText.format(value) }
        return ValueText.format(shown)
    }

    private func lookUp(_ text: String, in destination: (entity: String, displayKey: String)) throws -> ManagedObject? {
        if text.isEmpty { return nil }
        var request = FetchRequest(entityName: destination.entity, predicate: PredicateKey(destination.displayKey) == .string(text))
        request.fetchLimit = 2
        let found = try context.fetch(request)
        guard let first = found.first else { throw ValueTextError("no \(destination.entity) with \(destination.displayKey) \"\(text)\"") }
        guard found.count == 1 else { throw ValueTextError("more than one \(destination.entity) is named \"\(text)\"") }
        return first
    }
}
