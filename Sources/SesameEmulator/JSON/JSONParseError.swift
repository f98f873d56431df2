/// Why a body could not be read as JSON; `message` names the problem and the byte offset.
struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Human-readable text such as `Unexpected token 'x' at position 3.`
    let message: String
    var description: String { message }
}
