import CQRencode

/// The `totp.qr_code` of an enrolment: an SVG drawing of the QR code of the `otpauth://` URI
/// (GoTrue draws it at error correction level H, 3 pixels a module; libqrencode encodes it here).
enum TOTPQRCode {
    static let scale = 3
    /// Light modules around the symbol, as ISO/IEC 18004 asks of readers' quiet zone.
    static let margin = 4

    /// The SVG of `text`'s QR code; "" when it does not fit in a symbol.
    static func svg(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty,
            let encoded = bytes.withUnsafeBufferPointer({
                QRcode_encodeData(Int32($0.count), $0.baseAddress, 0, QR_ECLEVEL_H)
            })
        else { return "" }
        defer { QRcode_free(encoded) }
        let width = Int(encoded.pointee.width)
        guard width > 0, let data = encoded.pointee.data else { return "" }
        let side = (width + 2 * margin) * scale
        var path = ""
        for row in 0..<width {
            for column in 0..<width where data[row * width + column] & 1 == 1 {
                path += "M\((column + margin) * scale) \((row + margin) * scale)h\(scale)v\(scale)h-\(scale)z"
            }
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(side)\" height=\"\(side)\" "
            + "viewBox=\"0 0 \(side) \(side)\"><rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/>"
            + "<path fill=\"#000\" d=\"\(path)\"/></svg>"
    }
}
