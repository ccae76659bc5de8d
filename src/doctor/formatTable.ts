/**
 * Lines of a plain-text table: every column as wide as its widest cell, two spaces apart, no
 * trailing spaces. The first row is the header.
 */
export function formatTable(rows: ReadonlyArray<readonly string[]>): string[] {
	const widths: number[] = [];
	for (const row of rows) row.forEach((cell, column) => (widths[column] = Math.max(widths[column] ?? 0, [...cell].length)));
	return rows.map((row) =>
		row
			.map((cell, column) => (column === row.length - 1 ? cell : cell + ' '.repeat(widths[column]! - [...cell].length)))
			.join('  ')
			.trimEnd(),
	);
}
