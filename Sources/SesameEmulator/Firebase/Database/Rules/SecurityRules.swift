import SesameLocalAPI

/// A namespace's parsed security rules (`PUT /.settings/rules.json`): a tree of locations,
/// each with optional `.read`, `.write` and `.validate` rules, literal children and at most one
/// `$wildcard` child.
struct SecurityRules: Sendable, Equatable {
    struct Node: Sendable, Equatable {
        var read: RuleExpression?
        var write: RuleExpression?
        var validate: RuleExpression?
        var children: [String: Node] = [:]
        /// The `$name` child, matching every key without a literal rule; its name is a variable.
        var wildcardName: String?
        var wildcard: [Node] = []

        /// The rule node for `key` and the variable it binds, if any.
        func child(_ key: String) -> (node: Node, variable: (String, String)?)? {
            if let literal = children[key] { return (literal, nil) }
            if let name = wildcardName, let node = wildcard.first { return (node, (name, key)) }
            return nil
        }
    }

    var top: Node

    /// Rules that allow everything: what the emulator enforces when none were uploaded.
    static let open = SecurityRules(
        top: Node(read: .literal(.bool(true)), write: .literal(.bool(true))))

    /// Parses a rules document `{"rules": {...}}`.
    /// - Throws: ``SecurityRulesError`` naming the location of an unknown key, a rule that is
    ///   neither a boolean nor a string, or an expression the emulator does not support.
    static func parse(_ document: JSONValue) throws(SecurityRulesError) -> SecurityRules {
        guard case .object(let members) = document, case .object(let rules)? = members["rules"] else {
            throw SecurityRulesError("Expected a JSON object with a \"rules\" member.")
        }
        for key in members.keys where key != "rules" {
            throw SecurityRulesError("Invalid key: \(key). Only \"rules\" is allowed at the top level.")
        }
        return SecurityRules(top: try node(rules, location: "/rules", wildcards: []))
    }

    private static func node(
        _ members: [String: JSONValue], location: String, wildcards: Set<String>
    ) throws(SecurityRulesError) -> Node {
        var node = Node()
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            let here = "\(location)/\(key)"
            switch key {
            case ".read": node.read = try expression(value, location: here, wildcards: wildcards)
            case ".write": node.write = try expression(value, location: here, wildcards: wildcards)
            case ".validate": node.validate = try expression(value, location: here, wildcards: wildcards)
            case ".indexOn": continue
            case let other where other.hasPrefix("."):
                throw SecurityRulesError("Invalid key: \(other). Keys starting with '.' must be rules.").at(here)
            default:
                guard case .object(let childMembers) = value else {
                    throw SecurityRulesError("Expected an object of rules.").at(here)
                }
                if key.hasPrefix("$") {
                    if let existing = node.wildcardName {
                        throw SecurityRulesError("Two wildcards at one location (\(existing), \(key)).").at(here)
                    }
                    node.wildcardName = key
                    node.wildcard = [try Self.node(childMembers, location: here, wildcards: wildcards.union([key]))]
                } else {
                    node.children[key] = try Self.node(childMembers, location: here, wildcards: wildcards)
                }
            }
        }
        return node
    }

    private static func expression(
        _ value: JSONValue, location: String, wildcards: Set<String>
    ) throws(SecurityRulesError) -> RuleExpression {
        switch value {
        case .bool(let b): return .literal(.bool(b))
        case .string(let text):
            do throws(SecurityRulesError) {
                return try RuleExpression.parse(text, wildcards: wildcards)
            } catch {
                throw error.at(location)
            }
        default: throw SecurityRulesError("Expected a boolean or a string expression.").at(location)
        }
    }
}
