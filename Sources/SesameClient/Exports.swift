// The public values of the library (SesameState, SesameUser, SesameMerge, SesameIDToken,
// SesameHello, SesameStatus, …) are the protocol's wire objects, declared in SesameLocalAPI:
// an app imports SesameClient only.
@_exported import SesameLocalAPI
