/// RFC 6902 JSON Patch: applying a list of operations to a JSON document, and computing one.
///
/// ```swift
/// let ops = JSONPatch.diff(from: old, to: new)    // add/remove/replace only
/// let copy = try JSONPatch.apply(ops, to: old)   // copy == new
/// try JSONPatch.apply(ops, to: &mirror)          // in place, for large documents
/// ```
///
/// Applying is atomic: if any operation fails, the whole patch fails and the document is left
/// as it was.
public enum JSONPatch {
  /// Applies `ops` in order to a document and returns the result.
  ///
  /// The document is changed in place where it is uniquely referenced (pass it with `consume`
  /// or as a temporary); otherwise only the containers along each changed path are copied.
  ///
  /// - Parameters:
  ///   - ops: The operations, applied one after another.
  ///   - document: The document to patch.
  /// - Returns: The patched document.
  /// - Throws: A ``JSONPatchError`` naming the first operation that failed; nothing is
  ///   returned then, and the caller's document is unchanged.
  public static func apply(
    _ ops: [JSONPatchOperation],
    to document: consuming JSON
  ) throws(JSONPatchError) -> JSON {
    var result = consume document
    var applier = PatchApplier(recordsUndo: false)
    try applier.apply(ops, to: &result)
    return result
  }

  /// Applies `ops` in order to `document`, changing it in place.
  ///
  /// Changing one element of a 100,000-element array costs about as much as following its
  /// path: nothing else is copied. The operations are recorded as they succeed so that a later
  /// failure can undo them.
  ///
  /// - Parameters:
  ///   - ops: The operations, applied one after another.
  ///   - document: The document to patch; unchanged if the patch fails.
  /// - Throws: A ``JSONPatchError`` naming the first operation that failed.
  public static func apply(
    _ ops: [JSONPatchOperation],
    to document: inout JSON
  ) throws(JSONPatchError) {
    var applier = PatchApplier(recordsUndo: true)
    do {
      try applier.apply(ops, to: &document)
    } catch {
      applier.undo(&document)
      throw error
    }
  }

  /// Decodes a patch document: a JSON array of operation objects.
  ///
  /// - Parameter json: An array such as `[{"op":"remove","path":"/a"}]`.
  /// - Returns: The operations, in order.
  /// - Throws: A ``JSONPatchError`` naming the first operation that could not be decoded.
  public static func operations(from json: JSON) throws(JSONPatchError) -> [JSONPatchOperation] {
    guard case .array(let elements) = json else { throw JSONPatchError(.patchNotAnArray) }
    var ops: [JSONPatchOperation] = []
    ops.reserveCapacity(elements.count)
    for (index, element) in elements.enumerated() {
      do {
        ops.append(try JSONPatchOperation(json: element))
      } catch {
        throw JSONPatchError(error.kind, operationIndex: index)
      }
    }
    return ops
  }

  /// Encodes operations as a patch document: a JSON array of operation objects.
  ///
  /// - Parameter ops: The operations.
  /// - Returns: The array of their ``JSONPatchOperation/json`` forms.
  public static func json(for ops: [JSONPatchOperation]) -> JSON {
    .array(ops.map(\.json))
  }
}
