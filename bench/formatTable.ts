/** A plain-text table: a header, a rule, the rows; the first two columns left-aligned (names), the rest right (numbers). */
export function formatTable(columns: readonly string[], rows: readonly string[][]): string {
	const all = [[...columns], ...rows];
	const widths = columns.map((_, column) => Math.max(...all.map((row) => row[column]!.length)));
	const line = (row: readonly string[]): string =>
		row.map((cell, column) => (column < 2 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
	return [line(all[0]!), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}
