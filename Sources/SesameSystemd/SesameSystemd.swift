// SesameSystemd: see Package.swift for this target's responsibility.
