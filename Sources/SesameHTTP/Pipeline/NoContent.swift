/// The answer of a call whose content does not matter: any JSON value, or no body at all.
///
/// ``JSONEndpointClient`` still refuses a body that is not JSON (a proxy's page is no proof
/// that the call was carried out).
public struct NoContent: Decodable, Sendable, Hashable {
    public init() {}

    public init(from decoder: any Decoder) throws {}
}
