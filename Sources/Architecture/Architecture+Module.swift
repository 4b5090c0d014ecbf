// The Architecture module.
