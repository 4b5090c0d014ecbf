/// Plain-text tables: a header row, then rows, columns padded to their widest cell and
/// separated by two spaces; the last column is not padded.
enum Table {
  /// Renders `rows` under `header`.
  ///
  /// - Parameters:
  ///   - header: The column titles.
  ///   - rows: The cells, one array per row, as many as titles.
  /// - Returns: The lines of the table.
  static func render(header: [String], rows: [[String]]) -> [String] {
    let all = [header] + rows
    var widths = Array(repeating: 0, count: header.count)
    for row in all {
      for (column, cell) in row.enumerated() where column < widths.count {
        widths[column] = max(widths[column], cell.count)
      }
    }
    return all.map { row in
      var line = ""
      for (column, cell) in row.enumerated() {
        if column == row.count - 1 {
          line += cell
        } else {
          line += cell + String(repeating: " ", count: widths[column] - cell.count + 2)
        }
      }
      while line.hasSuffix(" ") { line.removeLast() }
      return line
    }
  }
}
