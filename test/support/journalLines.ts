import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Every line of every journal of `guildId` in `dataDir`, parsed, file by file in name order: what
 * a crash left on disk. A torn last line is skipped, as the journal reader skips it; run records
 * and other files beside the journals are left out.
 */
export async function journalLines(dataDir: string, guildId: string): Promise<Array<Record<string, unknown>>> {
	const dir = join(dataDir, guildId);
	const lines: Array<Record<string, unknown>> = [];
	for (const file of (await readdir(dir)).filter((name) => name.endsWith('.jsonl')).sort()) {
		for (const line of (await readFile(join(dir, file), 'utf8')).split('\n')) {
			if (line.trim() === '') continue;
			try {
				lines.push(JSON.parse(line) as Record<string, unknown>);
			} catch {
				// A torn last line is what a SIGKILL may leave.
			}
		}
	}
	return lines;
}
