/// Provider ids between Supabase's names and Firebase's, which the wire protocol uses on every
/// backend (PROTOCOL.md, Backends). Unknown ids pass through unchanged both ways.
public enum SupabaseProviderIds {
    /// Supabase name → Firebase name.
    static let firebaseNames: [String: String] = [
        "email": "password",
        "google": "google.com",
        "apple": "apple.com",
        "github": "github.com",
        "facebook": "facebook.com",
        "twitter": "twitter.com",
        "azure": "microsoft.com",
        "anonymous": "anonymous",
    ]
    static let supabaseNames: [String: String] = Dictionary(
        uniqueKeysWithValues: firebaseNames.map { ($0.value, $0.key) })

    /// The wire (Firebase) name of a Supabase provider id: `email` → `password`, `google` →
    /// `google.com`, …
    public static func firebaseName(_ supabase: String) -> String {
        firebaseNames[supabase] ?? supabase
    }

    /// The Supabase name of a wire provider id: `google.com` → `google`, `password` → `email`, …
    public static func supabaseName(_ firebase: String) -> String {
        supabaseNames[firebase] ?? firebase
    }
}
