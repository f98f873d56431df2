import CQRencode

/// A QR code symbol (ISO/IEC 18004): a square of dark and light modules. libqrencode encodes
/// it; sesamectl only draws it (`TerminalQRCode`).
struct QRCode: Equatable, Sendable {
    /// Modules per side: 21 for version 1, four more for each version after it.
    let size: Int
    /// Row-major, `true` for a dark module.
    let modules: [Bool]

    init(size: Int, modules: [Bool]) {
        precondition(modules.count == size * size, "a QR code is square")
        self.size = size
        self.modules = modules
    }

    /// The smallest symbol that holds `text`'s UTF-8 bytes at error correction level M (15 % of
    /// the symbol may be unreadable), or nil when it does not fit (about 2,300 bytes) or
    /// libqrencode fails.
    init?(encoding text: String) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return nil }
        let encoded = bytes.withUnsafeBufferPointer { buffer in
            QRcode_encodeData(Int32(buffer.count), buffer.baseAddress, 0, QR_ECLEVEL_M)
        }
        guard let encoded else { return nil }
        defer { QRcode_free(encoded) }
        let width = Int(encoded.pointee.width)
        guard width > 0, let data = encoded.pointee.data else { return nil }
        // Bit 0 of each byte is the module's colour; the other bits describe its role.
        let modules = (0..<(width * width)).map { data[$0] & 1 == 1 }
        self.init(size: width, modules: modules)
    }

    /// Whether the module at `row`, `column` is dark; outside the symbol (the quiet zone) is light.
    func isDark(row: Int, column: Int) -> Bool {
        guard (0..<size).contains(row), (0..<size).contains(column) else { return false }
        return modules[row * size + column]
    }
}
