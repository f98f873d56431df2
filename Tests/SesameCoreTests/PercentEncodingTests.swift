import SesameCore
import Testing

@Suite("Percent-encoding and form fields (the one codec of the adapters and the emulator)")
struct PercentEncodingTests {
    @Test("form fields decode in order: + is a space, %XX a byte, a bad escape stays, no = is empty")
    func decodesFormFields() {
        let fields = PercentEncoding.formFields("a=1+2&b=%41%zz&&c&a=again")
        #expect(fields.map(\.0) == ["a", "b", "c", "a"])
        #expect(fields.map(\.1) == ["1 2", "A%zz", "", "again"])
        #expect(PercentEncoding.formDictionary("a=1&a=2") == ["a": "1"])
    }

    @Test("a path keeps + and decodes %XX; a query value encodes all but the unreserved")
    func pathsAndValues() {
        #expect(PercentEncoding.path("/a+b%2Fc") == "/a+b/c")
        #expect(PercentEncoding.queryValue("a b/é~") == "a%20b%2F%C3%A9~")
        let text = "x=1&y=ü +"
        #expect(PercentEncoding.formValue(PercentEncoding.queryValue(text)) == text)
    }
}
