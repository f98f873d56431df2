import SesameLocalAPI

/// A value while a rule is evaluated.
enum RuleValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    /// A location of a tree (`data`, `newData`, `root` and what `child()`/`parent()` give).
    case snapshot(tree: JSONValue, path: [String])
    /// An object that is not a snapshot (`auth`, `auth.token`, an object `val()`).
    case object([String: JSONValue])
    case array([RuleValue])
    /// A regex literal: only an argument of `matches()`.
    case regex(RuleRegex)

    /// A primitive or object as a rule sees it.
    init(json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .integer(let i): self = .number(Double(i))
        case .number(let d): self = .number(d)
        case .string(let s): self = .string(s)
        case .object(let o): self = .object(o)
        case .array(let a): self = .object(DatabaseValue.indexed(a))
        }
    }
}

/// A rule failed to evaluate (a type error, a method on the wrong type); RTDB treats the rule
/// as false.
struct RuleEvaluationError: Error, Sendable {}
