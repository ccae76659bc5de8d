import { readFile } from 'node:fs/promises';

/** One line of massnick's log (pino's JSON): its message, level and fields (`err` for an error). */
export type BotLogEntry = { msg: string; level?: number; err?: { message?: string; code?: string } } & Record<string, unknown>;

/** Which lines: a message that is one of `is`, or that contains one of `contains`. */
export interface LogMessages {
	is?: readonly string[];
	contains?: readonly string[];
}

/**
 * The lines of massnick's log files whose message is one of `wanted`, parsed, file by file in the
 * order given. Only lines that hold the words are parsed (the harness reads the logs every
 * second, beside the bot it measures). A file not written yet counts as empty, and lines that are
 * not the logger's (stderr copied beside it) are skipped.
 */
export async function botLogEntries(files: readonly string[], wanted: LogMessages): Promise<BotLogEntry[]> {
	const is = wanted.is ?? [];
	const contains = wanted.contains ?? [];
	const raw = [...is.map((message) => `"msg":${JSON.stringify(message)}`), ...contains];
	const entries: BotLogEntry[] = [];
	for (const file of files) {
		const text = await readFile(file, 'utf8').catch(() => '');
		for (const line of text.split('\n')) {
			if (!raw.some((words) => line.includes(words))) continue;
			let entry: BotLogEntry;
			try {
				entry = JSON.parse(line) as BotLogEntry;
			} catch {
				// A line cut off at the end of a file still being written.
				continue;
			}
			if (is.includes(entry.msg) || contains.some((words) => entry.msg?.includes(words))) entries.push(entry);
		}
	}
	return entries;
}
