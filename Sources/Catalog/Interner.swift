// Numbers distinct values in the order they are first seen. The catalog stores each distinct
// name once and the index folds each distinct word once; both number them with this, and so
// does the generated filler (CatalogFiller).
import Pipeline

/// Gives every distinct value an id, `0, 1, 2…` in first-seen order; `values[id]` is the value.
///
/// The look-up table lives only as long as the interner: keep `values` and drop the interner
/// once every value is in, since whatever a build allocates at its peak stays resident.
package struct Interner<Value: Hashable> {
  /// The distinct values, each at the position of its id.
  package private(set) var values: [Value] = []
  /// Value → its id.
  private var ids: [Value: Int32] = [:]

  /// An interner holding no value yet.
  package init() {}

  /// The id of `value`, giving it the next id the first time it is seen.
  package mutating func id(of value: Value) -> Int32 {
    if let id = ids[value] { return id }
    let id = Int32(values.count)
    ids[value] = id
    values.append(value)
    return id
  }
}
