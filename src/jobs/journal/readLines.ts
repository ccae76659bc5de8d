import { createReadStream } from 'node:fs';

/** One line of a file: its text (without the newline) and its 1-based number. */
export interface Line {
	readonly text: string;
	readonly number: number;
}

/**
 * The newline-terminated lines of `path`, streamed. A last line without its newline is a write
 * torn by a crash: it was never acknowledged (an append resolves only after its newline is on
 * disk), so it is reported through `onTorn` and not yielded.
 */
export async function* readLines(path: string, onTorn: (line: Line) => void, { end }: { end?: number } = {}): AsyncGenerator<Line> {
	let rest = '';
	let number = 0;
	// `end`: only the first bytes (a compaction reads what was on disk when it began).
	const range = end === undefined ? {} : { end: end - 1 };
	for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 16, ...range })) {
		const lines = (rest + (chunk as string)).split('\n');
		rest = lines.pop() ?? '';
		for (const text of lines) {
			number++;
			if (text !== '') yield { text, number };
		}
	}
	if (rest !== '') onTorn({ text: rest, number: number + 1 });
}
