/// A string field that some answers send as a number (`expiresIn`, `createdAt`, …).
struct LenientString: Decodable, Sendable, Hashable {
    var value: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) {
            value = string
        } else if let integer = try? container.decode(Int64.self) {
            value = String(integer)
        } else {
            value = String(try container.decode(Double.self))
        }
    }
}
