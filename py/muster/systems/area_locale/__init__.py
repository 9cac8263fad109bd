"""Area-locale system (seed 004): locales and approaches, commands, assaults, hidden blocks."""
