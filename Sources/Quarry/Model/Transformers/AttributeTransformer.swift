import Foundation

/// Turns the value of a `Transformable` attribute into the bytes a store keeps, and back:
/// Core Data's `NSValueTransformer`, for Quarry's JSON-shaped transformable values.
///
/// Register one under a name with ``AttributeTransformers/register(_:named:)`` (`valueTransformerName`
/// in Xcode models, `"valueTransformer"` in JSON models). As in Core Data, the name is looked up
/// only when a value is transformed: a model naming an unregistered transformer loads with a
/// ``ModelWarning/unregisteredTransformer`` warning, its values read as the stored bytes, and
/// writing one is refused.
///
/// ```swift
/// struct Reversed: AttributeTransformer {
///     func data(from value: JSONValue) throws -> Data { Data(value.jsonText.utf8.reversed()) }
///     func value(from data: Data) throws -> JSONValue { try JSONValue(jsonText: String(decoding: data.reversed(), as: UTF8.self)) }
/// }
/// AttributeTransformers.register(Reversed(), named: "Reversed")
/// ```
public protocol AttributeTransformer: Sendable {
    /// The bytes to store for `value`.
    /// - Throws: when the value cannot be represented (the store then keeps it as JSON text,
    ///   which it reads back the same: nothing is lost).
    func data(from value: JSONValue) throws -> Data
    /// The value stored as `data`.
    /// - Throws: when `data` is not what this transformer writes.
    func value(from data: Data) throws -> JSONValue
    /// Whether ``data(from:)`` makes bytes; a transformer that only reads (`false`) makes
    /// writing a value refused, rather than stored in another form. `true` by default.
    var writesValues: Bool { get }
}

extension AttributeTransformer {
    public var writesValues: Bool { true }
}

/// Why a transformer could not turn a value into bytes or back.
public struct AttributeTransformError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public var reason: String

    /// Creates an error.
    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
