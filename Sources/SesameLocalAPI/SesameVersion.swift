/// The version of Sesame's programs: `sesamed` reports it in `hello.version`, and
/// `sesamectl --version` prints it. One place, so they never disagree.
public enum SesameVersion {
    public static let current = "0.1.0"
}
