import SesameLocalAPI

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
        var node = top
        var evaluator = start
        for depth in 0...keys.count {
            evaluator.path = Array(keys[..<depth])
            if let expression = rule(node), evaluator.grants(expression) { return true }
            guard depth < keys.count, let (next, variable) = node.child(keys[depth]) else { return false }
            if let (name, value) = variable { evaluator.variables[name] = value }
            node = next
        }
        return false
    }

    /// The `.validate` rules of the ancestors of `keys` and of everything below it.
    private func validated(_ keys: [String], _ start: RuleEvaluator) -> Bool {
        var node = top
        var evaluator = start
        for depth in 0..<keys.count {
            evaluator.path = Array(keys[..<depth])
            guard passes(node, evaluator) else { return false }
            guard let (next, variable) = node.child(keys[depth]) else { return true }
            if let (name, value) = variable { evaluator.variables[name] = value }
            node = next
        }
        evaluator.path = keys
        return subtreeValid(node, evaluator)
    }

    private func passes(_ node: Node, _ evaluator: RuleEvaluator) -> Bool {
        guard let rule = node.validate else { return true }
        if RuleValue.stored(evaluator.after, evaluator.path).isNull { return true }
        return evaluator.grants(rule)
    }

    private func subtreeValid(_ node: Node, _ evaluator: RuleEvaluator) -> Bool {
        guard passes(node, evaluator) else { return false }
        guard case .object(let children) = RuleValue.stored(evaluator.after, evaluator.path) else { return true }
        for key in children.keys {
            guard let (next, variable) = node.child(key) else { continue }
            var inner = evaluator
            inner.path.append(key)
            if let (name, value) = variable { inner.variables[name] = value }
            guard subtreeValid(next, inner) else { return false }
        }
        return true
    }
}
