import SesameLocalAPI

/// libFuzzer entry point: any bytes as one request line. Decoding must never crash, and every
/// answer must encode to one line of JSON that parses again. Built with `make fuzz`; in a
/// normal build this target is an inert executable.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneLine(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let line = UnsafeBufferPointer(start: data, count: size)
    let (decoded, id) = LocalAPIRequest.decodeKeepingID(line: Array(line))
    // The request decoder reads the outer object without a dictionary: it must see what the
    // general parser sees.
    if case .request(let request) = decoded, let whole = try? JSONValue.parse(line) {
        precondition(whole["method"]?.stringValue == request.method, "the method differs from the parser's")
        precondition((whole["params"]?.objectValue ?? [:]) == request.params.values, "the params differ")
        precondition(whole["id"] == request.id?.json, "the id differs from the parser's")
    }
    if case .request = decoded { precondition((try? JSONValue.parse(line)) != nil, "a request the parser rejects") }
    switch decoded {
    case .request(let request):
        let encoded = request.encoded()
        precondition(!encoded.contains(UInt8(ascii: "\n")), "a request re-encoded to more than one line")
        _ = try? request.params.string("email")
        _ = try? request.params.optionalBool("reset")
        _ = try? request.params.optionalStringArray("events")
        // The answer echoes the id's own bytes: one line of JSON whose id is the request's.
        let answer = SplicedResponse.success(.object([:])).line(id: id)
        precondition(!answer.contains(UInt8(ascii: "\n")), "an answer spans lines")
        precondition((try? JSONValue.parse(answer))?["id"] == request.id?.json, "the spliced id is not the request's")
    case .failure(let failedID, let error):
        let answer = SplicedResponse.failure(error).line(id: id)
        precondition(!answer.contains(UInt8(ascii: "\n")), "an error answer spans lines")
        precondition((try? JSONValue.parse(answer))?["id"] == failedID.json, "an error answer is not JSON with the id")
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
