import SesameCore

/// What a backend adapter tells ``JSONEndpointClient`` about refused answers: the shape of its
/// error bodies, the code to log, and how a refusal maps onto ``RemoteAuthError``.
///
/// The pipeline decodes the error body once and hands it here; the adapter keeps only this
/// table and its endpoints.
public protocol BackendErrorClassifier: Sendable {
    /// The backend's error body, decoded once from a refused answer.
    associatedtype ErrorBody: Decodable & Sendable
    /// What the call was doing, which decides how a refusal maps.
    associatedtype Context: Sendable

    /// The log message prefix and metadata namespace: `firebase`, `rtdb`, `supabase`.
    static var backend: String { get }

    /// The machine-readable code of a refusal, for the log line; never a message (backends
    /// echo input in their messages).
    static func code(of failure: HTTPFailure<ErrorBody>) -> String?

    /// The domain error of a refused answer.
    static func classify(_ failure: HTTPFailure<ErrorBody>, context: Context) -> RemoteAuthError
}
