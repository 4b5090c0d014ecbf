// The Examples module.
