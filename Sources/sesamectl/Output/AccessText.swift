import Foundation
import SesameClient

/// How `sesamectl access` and `watch` name a program's request for a role and a grant. Every
/// field but the reason was read by the daemon; the reason is the program's own words and is
/// shown quoted as such. Pure.
enum AccessText {
    /// "ar-1f… asks for reader: /usr/bin/notes (unit notes.service, uid 1000 ann, pid 42), says "sync""
    static func request(_ request: SesameAccessRequest) -> String {
        let says = request.reason.map { ", says \"\($0)\"" } ?? ""
        return "\(request.requestId) asks for \(request.role): \(program(request))\(says); "
            + "expires \(StatusRenderer.timeWords(request.expiresAt))"
    }

    /// The program as the daemon saw it.
    static func program(_ request: SesameAccessRequest) -> String {
        var facts: [String] = []
        if let app = request.flatpakAppId { facts.append("flatpak \(app)") }
        if let unit = request.unit { facts.append("unit \(unit)") }
        facts.append("uid \(request.uid)" + (request.user.map { " \($0)" } ?? ""))
        facts.append("pid \(request.pid)")
        return "\(request.executable ?? "an executable the daemon cannot read") (\(facts.joined(separator: ", ")))"
    }

    /// "g-3a… reader, remembered always: /usr/bin/notes (uid 1000 ann)"
    static func grant(_ grant: SesameAccessGrant) -> String {
        let scope =
            switch grant.remember {
            case "connection": "for one connection" + (grant.pid.map { " (pid \($0))" } ?? "")
            case "boot": "until sesamed stops"
            default: "always"
            }
        let who = "uid \(grant.uid)" + (grant.user.map { " \($0)" } ?? "")
        return "\(grant.grantId) \(grant.role), \(scope): \(grant.executable ?? "an unknown executable") (\(who))"
    }
}
