// The Hosting module.
