import Foundation
import SesameCore
import SesameLocalAPI

/// `accounts:batchCreate` (uploadAccount, privileged): `{users:[…], allowOverwrite, sanityCheck,
/// hashAlgorithm, signerKey, saltSeparator, rounds, memoryCost, …}`.
///
/// A `passwordHash` in the emulator's own `fakeHash:salt=…:password=…` form (as text or base64:
/// the Admin SDKs send the hash's bytes in base64) signs in with that password, as in Google's
/// emulator. Any other hash signs in when the request names an algorithm
/// ``ImportedPasswordHash`` computes and the password hashes to it.
struct BatchCreateRequest: IdentityToolkitRequest {
    @Field var users: JSONValue?
    @Field var allowOverwrite: Bool?
    @Field var sanityCheck: Bool?
    @Field var hashAlgorithm: JSONValue?
    @Field var signerKey: JSONValue?
    @Field var saltSeparator: JSONValue?
    @Field var rounds: JSONValue?
    @Field var memoryCost: JSONValue?
    @Field var cpuMemCost: JSONValue?
    @Field var blockSize: JSONValue?
    @Field var parallelization: JSONValue?
    @Field var dkLen: JSONValue?
}

extension AccountStore {
    /// Why one user of a batch was not imported (`error[].message`).
    struct ImportRefusal: Error { let message: String }

    /// Imports the users one by one, in order; a refused user is reported by index and the rest
    /// are still imported. Request-wide problems (no users, duplicates in the batch) refuse all.
    func batchCreate(_ body: BatchCreateRequest) throws(IdentityToolkitError) -> JSONValue {
        guard let entries = body.users?.arrayValue, !entries.isEmpty else { throw .invalid("MISSING_USER_ACCOUNT") }
        let sanityCheck = body.sanityCheck ?? false
        let overwrite = body.allowOverwrite ?? false
        if sanityCheck { try Self.checkBatchDuplicates(entries) }
        if !overwrite {
            var localIds = Set<String>()
            for entry in entries {
                let localId = entry["localId"]?.stringValue ?? ""
                if !localIds.insert(localId).inserted { throw .invalid("DUPLICATE_LOCAL_ID : \(localId)") }
            }
        }
        var errors: [JSONValue] = []
        let hash = ImportedPasswordHash(request: body)
        try hash?.check()
        for (index, entry) in entries.enumerated() {
            do throws(ImportRefusal) {
                let user = try importedUser(entry, overwrite: overwrite, sanityCheck: sanityCheck, hash: hash)
                users[user.localId] = user
            } catch {
                errors.append(["index": .int(index), "message": .string(error.message)])
            }
        }
        return ["kind": "identitytoolkit#UploadAccountResponse", "error": .array(errors)]
    }

    /// `sanityCheck`: no email and no (provider, raw id) twice in the batch.
    static func checkBatchDuplicates(_ entries: [JSONValue]) throws(IdentityToolkitError) {
        var emails = Set<String>()
        var rawIds = Set<String>()
        for entry in entries {
            if let email = entry["email"]?.stringValue, !emails.insert(email).inserted {
                throw .invalid("DUPLICATE_EMAIL : \(email)")
            }
            for provider in entry["providerUserInfo"]?.arrayValue ?? [] {
                let providerId = provider["providerId"]?.stringValue ?? ""
                let rawId = provider["rawId"]?.stringValue ?? ""
                if !rawIds.insert("\(providerId):\(rawId)").inserted {
                    throw .invalid("DUPLICATE_RAW_ID : Provider id(\(providerId)), Raw id(\(rawId))")
                }
            }
        }
    }

    /// One imported account, checked in the order Google's emulator checks, with its messages.
    func importedUser(
        _ entry: JSONValue, overwrite: Bool, sanityCheck: Bool, hash: ImportedPasswordHash? = nil
    ) throws(ImportRefusal) -> UserRecord {
        guard let localId = entry["localId"]?.stringValue.nonEmpty else {
            throw ImportRefusal(message: "localId is missing")
        }
        if let tenant = entry["tenantId"]?.stringValue, !tenant.isEmpty {
            throw ImportRefusal(message: "Tenant id in userInfo does not match the tenant id in request.")
        }
        let now = nowMilliseconds
        var user = UserRecord(localId: localId, createdAt: now)
        user.displayName = entry["displayName"]?.stringValue
        user.photoUrl = entry["photoUrl"]?.stringValue
        user.lastLoginAt = entry["lastLoginAt"]?.int64TextValue
        importPassword(entry, into: &user, at: now, hash: hash)
        if let attributes = entry["customAttributes"]?.stringValue, !attributes.isEmpty {
            try Self.checkImportedClaims(attributes)
            user.customAttributes = attributes
        }
        for provider in entry["providerUserInfo"]?.arrayValue ?? [] {
            try importProvider(provider, into: &user)
        }
        if let phone = entry["phoneNumber"]?.stringValue.nonEmpty {
            guard phone.hasPrefix("+"), phone.count > 1 else {
                throw ImportRefusal(message: "phone number format is invalid")
            }
            user.phoneNumber = phone
        }
        user.validSince = now / 1000
        user.createdAt = entry["createdAt"]?.int64TextValue ?? now
        if let email = entry["email"]?.stringValue {
            guard AccountStore.isValidEmail(email) else { throw ImportRefusal(message: "email is invalid") }
            if let other = self.user(withEmail: email), other.localId != localId {
                throw ImportRefusal(
                    message: sanityCheck
                        ? "email exists in other account in database"
                        : "((Auth Emulator does not support importing duplicate email: \(email)))")
            }
            user.email = email.lowercased()
        }
        user.emailVerified = entry["emailVerified"]?.boolValue ?? false
        user.disabled = entry["disabled"]?.boolValue ?? false
        if let factors = entry["mfaInfo"]?.arrayValue, !factors.isEmpty {
            throw ImportRefusal(message: "((sesame-emulator does not support multi-factor enrollments (mfaInfo).))")
        }
        if users[localId] != nil && !overwrite {
            throw ImportRefusal(message: "localId belongs to an existing account - can not overwrite.")
        }
        return user
    }

    /// `passwordHash` (with `salt`) or `rawPassword`.
    func importPassword(_ entry: JSONValue, into user: inout UserRecord, at now: Int, hash: ImportedPasswordHash?) {
        if let passwordHash = entry["passwordHash"]?.stringValue, !passwordHash.isEmpty {
            if let (salt, password) = Self.fakeHashParts(passwordHash) {
                user.password = password
                user.salt = salt
            } else {
                user.importedPasswordHash = passwordHash
                user.importedHashParameters = hash
                user.salt = entry["salt"]?.stringValue
            }
            user.passwordUpdatedAt = now
        } else if let raw = entry["rawPassword"]?.stringValue, !raw.isEmpty {
            user.password = raw
            user.salt =
                entry["salt"]?.stringValue.nonEmpty
                ?? "fakeSalt" + RandomIdentifier.make(20, from: RandomIdentifier.alphanumerics)
            user.passwordUpdatedAt = now
        }
    }

    /// One `providerUserInfo` entry; `password` and `phone` entries are derived, so skipped.
    func importProvider(_ provider: JSONValue, into user: inout UserRecord) throws(ImportRefusal) {
        let providerId = provider["providerId"]?.stringValue ?? ""
        let rawId = provider["rawId"]?.stringValue ?? ""
        if providerId == "password" || providerId == "phone" { return }
        guard !providerId.isEmpty, !rawId.isEmpty, let info = ProviderUserInfo(json: provider) else {
            if provider["federatedId"]?.stringValue.nonEmpty != nil {
                throw ImportRefusal(
                    message: "((Parsing federatedId is not implemented in Auth Emulator; "
                        + "please specify providerId AND rawId as a workaround.))")
            }
            throw ImportRefusal(message: "federatedId or (providerId & rawId) is required")
        }
        if let other = self.user(withProvider: providerId, rawId: rawId), other.localId != user.localId {
            throw ImportRefusal(message: "raw id exists in other account in database")
        }
        user.federatedProviders.append(info)
    }

    /// The salt and password of an emulator `fakeHash:salt=…:password=…` hash, given as text or
    /// base64; `nil` for any other hash.
    static func fakeHashParts(_ hash: String) -> (salt: String, password: String)? {
        let prefix = "fakeHash:salt="
        var text = hash
        if !text.hasPrefix(prefix) {
            guard let bytes = Base64URL.decode(hash), let decoded = String(validating: bytes, as: UTF8.self) else {
                return nil
            }
            text = decoded
        }
        guard text.hasPrefix(prefix), let separator = text.range(of: ":password=") else { return nil }
        let salt = String(text[text.index(text.startIndex, offsetBy: prefix.count)..<separator.lowerBound])
        let password = String(text[separator.upperBound...])
        return password.isEmpty ? nil : (salt, password)
    }

    /// `customAttributes` checks, with the messages import answers (not the error codes).
    static func checkImportedClaims(_ attributes: String) throws(ImportRefusal) {
        guard case .object(let claims)? = try? JSONCoding.parse(attributes) else {
            throw ImportRefusal(message: "Invalid custom claims provided.")
        }
        if claims.keys.contains(where: reservedClaims.contains) {
            throw ImportRefusal(message: "Custom claims provided include a reserved claim.")
        }
        if attributes.utf8.count > 1000 { throw ImportRefusal(message: "Custom claims provided are too large.") }
    }
}
