import Architecture

/// A remote scope is a ``StoreProtocol``: code written against it runs unchanged on a local
/// `Store` and on a `RemoteStore`. Its ``send(_:)`` returns the host's revision and throws
/// ``RemoteError``; its ``stateChanges()`` ends when the store stops for good.
extension RemoteStore: StoreProtocol {}
