// The Remote module.
