/// Prints rows as an aligned, readable table (the default output).
struct TablePrinter {
    private let columns = [
        ("suite", 11), ("workload", 14), ("n", 9), ("key", 6), ("impl", 14), ("median ms", 11), ("min ms", 11),
        ("×floor", 8),
    ]

    var header: String {
        columns.map { pad($0.0, $0.1) }.joined(separator: " ") + " metrics\n"
            + String(repeating: "─", count: columns.map(\.1).reduce(0, +) + columns.count + 30) + "\n"
    }

    func line(_ row: BenchRow) -> String {
        let cells = [
            row.suite, row.workload, String(row.n), row.key, row.impl, format(row.medianMs, digits: 3),
            format(row.minMs, digits: 3), row.ratioToFloor.map { format($0) } ?? "",
        ]
        var line = zip(cells, columns).map { pad($0, $1.1) }.joined(separator: " ")
        line +=
            " "
            + row.metrics.map { "\($0.0)=\(JSONText.number(($0.1 * 1000).rounded() / 1000))" }.joined(separator: " ")
        if let note = row.note { line += "  (" + note + ")" }
        return line
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
