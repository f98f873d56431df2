import Foundation

/// Lines for standard error, each prefixed with the program's name.
enum StandardError {
    static func print(_ message: String) {
        FileHandle.standardError.write(Data("sesamectl: \(message)\n".utf8))
    }
}
