// Until the Supabase routes are typed operations (issue 33): the port's EmulatorRequest-based
// hooks stand for EmulatorEndpoints' (see Server/Router+Emulator.swift). Delete with them.
extension SupabaseEndpoints: LegacyEmulatorEndpoints {}
