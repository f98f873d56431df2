import Testing

/// The backend a test runs `sesamed` and `sesame-emulator` with. Parameterised tests take
/// `TestBackend.allCases`, so each flow runs once per backend and its name says which.
enum TestBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case firebase, supabase

    var testDescription: String {
        switch self {
        case .firebase: return "Firebase"
        case .supabase: return "Supabase"
        }
    }
}

/// What tests compare of an account at the backend, whichever backend it is: provider ids in
/// the wire protocol's (Firebase's) names, sorted.
struct BackendAccount: Sendable, Equatable {
    var email: String?
    var providers: [String]
    var isAnonymous: Bool
}
