/// Why a body could not be read as JSON; `message` names the problem and the byte offset.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Human-readable text such as `Unexpected token 'x' at position 3.`
    public let message: String
    public var description: String { message }
}
