/// How long a test's HTTP client waits for its TCP connect to an emulator on loopback.
///
/// The product's own connect timeout is short, so that an offline machine finds out fast; a
/// test is not about that (the tests that are set their own). A test process running a thousand
/// tests at once on two cores has been seen to take over 2 s to complete a loopback connect
/// (two conformance tests failed with "connect timed out" at once, 2026-11-29): long enough a
/// wait that a starved loop is not mistaken for a refused or unreachable server.
public enum LoopbackTimeouts {
    public static let connect: Duration = .seconds(10)
}
