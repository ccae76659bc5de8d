import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** What a guild's journal files hold, as the bench reads them from disk. */
export interface JournalsOnDisk {
	/** The `.jsonl` files, by name. */
	files: string[];
	bytes: number;
	/** The largest file's size: the one a file-size limit stops first. */
	largestBytes: number;
	/** The members with an `original` line (the value before a change, written before it is sent). */
	originals: Set<string>;
}

/**
 * Reads the journal files in `guildDir` (`<dataDir>/<guildId>`), or only those named in `only`.
 * A torn last line, as a SIGKILL leaves, is skipped, as the journal reader skips it.
 */
export async function readJournals(guildDir: string, only?: readonly string[]): Promise<JournalsOnDisk> {
	const names = (await readdir(guildDir).catch(() => [] as string[])).filter((name) => name.endsWith('.jsonl') && (only === undefined || only.includes(name)));
	const journals: JournalsOnDisk = { files: names.sort(), bytes: 0, largestBytes: 0, originals: new Set() };
	for (const name of journals.files) {
		const size = (await stat(join(guildDir, name))).size;
		journals.bytes += size;
		journals.largestBytes = Math.max(journals.largestBytes, size);
		for (const line of (await readFile(join(guildDir, name), 'utf8')).split('\n')) {
			if (!line.includes('"type":"original"')) continue;
			try {
				journals.originals.add((JSON.parse(line) as { id: string }).id);
			} catch {
				// A torn last line.
			}
		}
	}
	return journals;
}
