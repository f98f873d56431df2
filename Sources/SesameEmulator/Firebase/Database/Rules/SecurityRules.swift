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

        /// The rule node for `key`, and `evaluator` moved there (the wildcard's variable bound).
        func child(_ key: String, _ evaluator: RuleEvaluator) -> (Node, RuleEvaluator)? {
            var inner = evaluator
            inner.path.append(key)
            if let literal = children[key] { return (literal, inner) }
            guard let name = wildcardName, let node = wildcard.first else { return nil }
            inner.variables[name] = key
            return (node, inner)
        }
    }

    var top: Node

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

/// RTDB's semantics: `.read` and `.write` cascade (a grant at a location grants its whole
/// subtree; deeper rules cannot revoke it and a deeper grant does not reach up); `.validate`
/// does not cascade and runs at every location a write leaves non-null — the written location's
/// ancestors and every location below it in the new data.
extension SecurityRules {
    /// Whether `auth` may read the location `path` of `tree`.
    func canRead(_ path: DatabasePath, tree: JSONValue, auth: JSONValue, now: Int) -> Bool {
        let evaluator = RuleEvaluator(auth: auth, before: tree, after: tree, path: [], variables: [:], now: now)
        return granted(path.keys, evaluator) { $0.read }
    }

    /// Whether `auth` may make a write that replaces each of `locations` and turns `before`
    /// into `after`; every location needs a `.write` grant and all `.validate` rules must pass.
    func canWrite(_ locations: [DatabasePath], before: JSONValue, after: JSONValue, auth: JSONValue, now: Int) -> Bool {
        let evaluator = RuleEvaluator(auth: auth, before: before, after: after, path: [], variables: [:], now: now)
        for location in locations {
            guard granted(location.keys, evaluator, rule: { $0.write }) else { return false }
            guard validated(location.keys, evaluator) else { return false }
        }
        return true
    }

    /// Walks from the top to `keys`; true as soon as a rule on the way grants.
    private func granted(_ keys: [String], _ start: RuleEvaluator, rule: (Node) -> RuleExpression?) -> Bool {
        var (node, evaluator) = (top, start)
        for depth in 0...keys.count {
            if let expression = rule(node), evaluator.grants(expression) { return true }
            guard depth < keys.count, let next = node.child(keys[depth], evaluator) else { return false }
            (node, evaluator) = next
        }
        return false
    }

    /// The `.validate` rules of the ancestors of `keys` and of everything below it.
    private func validated(_ keys: [String], _ start: RuleEvaluator) -> Bool {
        var (node, evaluator) = (top, start)
        for key in keys {
            guard passes(node, evaluator) else { return false }
            guard let next = node.child(key, evaluator) else { return true }
            (node, evaluator) = next
        }
        return subtreeValid(node, evaluator)
    }

    private func passes(_ node: Node, _ evaluator: RuleEvaluator) -> Bool {
        guard let rule = node.validate else { return true }
        if DatabaseValue.child(of: evaluator.after, at: evaluator.path).isNull { return true }
        return evaluator.grants(rule)
    }

    private func subtreeValid(_ node: Node, _ evaluator: RuleEvaluator) -> Bool {
        guard passes(node, evaluator) else { return false }
        guard case .object(let children) = DatabaseValue.child(of: evaluator.after, at: evaluator.path) else {
            return true
        }
        for key in children.keys {
            guard let (next, inner) = node.child(key, evaluator) else { continue }
            guard subtreeValid(next, inner) else { return false }
        }
        return true
    }
}
