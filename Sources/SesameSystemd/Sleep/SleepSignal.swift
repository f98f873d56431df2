/// What logind says about sleep: `PrepareForSleep(true)` before the machine suspends or
/// hibernates, `PrepareForSleep(false)` after it woke.
public enum SleepSignal: Sendable, Equatable {
    case suspending
    case resumed
}
