/** One record of a CSV file: its fields, unquoted, and the line it starts on. */
export interface CsvRecord {
	readonly fields: readonly string[];
	/** 1-based, counted in the whole file: what an error names. */
	readonly line: number;
}

/**
 * The records of CSV text as RFC 4180 writes them (a quoted field may hold the delimiter, a line
 * break or `""` for a quote), read leniently as spreadsheet exports need: a quote inside an
 * unquoted field is kept as it is, and `\r\n`, `\n` and `\r` all end a record. Fields are not
 * trimmed. `firstLine` is the line `text` starts on, so records carry the file's line numbers.
 *
 * @see https://www.rfc-editor.org/rfc/rfc4180#section-2
 */
export function* csvRecords(text: string, delimiter: string, firstLine = 1): Generator<CsvRecord> {
	let line = firstLine;
	let start = line;
	let fields: string[] = [];
	let field = '';
	let quoted = false;
	for (let i = 0; i < text.length; i++) {
		const char = text[i]!;
		if (quoted) {
			if (char === '"') {
				if (text[i + 1] === '"') {
					field += '"';
					i++;
				} else {
					quoted = false;
				}
			} else {
				if (char === '\n' || (char === '\r' && text[i + 1] !== '\n')) line++;
				field += char;
			}
			continue;
		}
		// A quote opens a quoted field where only blanks came before it in the field (`a, "b"`).
		if (char === '"' && field.trim() === '') {
			quoted = true;
			field = '';
		} else if (char === delimiter) {
			fields.push(field);
			field = '';
		} else if (char === '\n' || char === '\r') {
			if (char === '\r' && text[i + 1] === '\n') i++;
			fields.push(field);
			yield { fields, line: start };
			fields = [];
			field = '';
			line++;
			start = line;
		} else {
			field += char;
		}
	}
	if (fields.length > 0 || field !== '' || quoted) {
		fields.push(field);
		yield { fields, line: start };
	}
}
