// Placeholder until the module's first real source file lands; delete then.
