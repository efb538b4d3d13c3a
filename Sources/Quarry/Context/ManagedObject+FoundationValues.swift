import Foundation

extension Date: AttributeValue {
    public init?(attributeValue v: Value) { if case .date(let d) = v { self = d } else { return nil } }
    public var attributeValue: Value { .date(self) }
    public static var emptyValue: Date { Date(timeIntervalSinceReferenceDate: 0) }
}

extension Data: AttributeValue {
    public init?(attributeValue v: Value) { if case .data(let d) = v { self = d } else { return nil } }
    public var attributeValue: Value { .data(self) }
    public static var emptyValue: Data { Data() }
}

extension UUID: AttributeValue {
    public init?(attributeValue v: Value) { if case .uuid(let u) = v { self = u } else { return nil } }
    public var attributeValue: Value { .uuid(self) }
    public static var emptyValue: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
}

extension URL: AttributeValue {
    public init?(attributeValue v: Value) { if case .uri(let u) = v { self = u } else { return nil } }
    public var attributeValue: Value { .uri(self) }
    public static var emptyValue: URL { URL(string: "about:blank")! }
}

extension Decimal: AttributeValue {
    public init?(attributeValue v: Value) {
        switch v {
        case .decimal(let d): self = d.decimal
        case .integer(let i): self = Decimal(i)
        default: return nil
        }
    }
    public var attributeValue: Value { .decimal(self) }
    public static var emptyValue: Decimal { 0 }
}
