import SesameLocalAPI

/// libFuzzer entry point: any bytes as one request line. Decoding must never crash, and every
/// answer must encode to one line of JSON that parses again. Built with `make fuzz`; in a
/// normal build this target is an inert executable.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneLine(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let line = UnsafeBufferPointer(start: data, count: size)
    switch LocalAPIRequest.decode(line: line) {
    case .request(let request):
        let encoded = request.encoded()
        precondition(!encoded.contains(UInt8(ascii: "\n")), "a request re-encoded to more than one line")
        _ = try? request.params.string("email")
        _ = try? request.params.optionalBool("reset")
        _ = try? request.params.optionalStringArray("events")
    case .failure(let id, let error):
        let answer = LocalAPIMessage.failure(id: id, error: error).encoded()
        precondition(!answer.contains(UInt8(ascii: "\n")), "an error answer spans lines")
        precondition((try? JSONValue.parse(answer)) != nil, "an error answer is not JSON")
    case .notification, .blank:
        break
    }
    if let value = try? JSONValue.parse(line) {
        // Serialising is stable: what we write parses back to something that writes the same.
        let once = value.serialized()
        precondition((try? JSONValue.parse(once))?.serialized() == once, "JSON did not round-trip")
    }
    return 0
}
