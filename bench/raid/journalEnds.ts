import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { NodeChild } from '../NodeChild.js';

/** How a job's run ended, as its journal's status line says (src/jobs/journal/records.ts). */
export type JournalEnd = 'finished' | 'cancelled' | 'stopped' | 'restored';

/**
 * Every status line's state in the journals of `guildDir` (`<dataDir>/<guildId>`), file by file
 * in name order. A torn last line is skipped.
 */
export async function journalEnds(guildDir: string): Promise<JournalEnd[]> {
	const names = (await readdir(guildDir).catch(() => [] as string[])).filter((name) => name.endsWith('.jsonl')).sort();
	const ends: JournalEnd[] = [];
	for (const name of names) {
		for (const line of (await readFile(join(guildDir, name), 'utf8')).split('\n')) {
			if (!line.includes('"type":"status"')) continue;
			try {
				ends.push((JSON.parse(line) as { state: JournalEnd }).state);
			} catch {
				// A torn last line.
			}
		}
	}
	return ends;
}

/**
 * Waits until the journals hold one more status line `state` than `already`: massnick's own word
 * that the job is done (`finished`; `restored` on the job a restore undid). A new `cancelled` or
 * `stopped`, the process exiting, or `timeoutMs` fail it.
 */
export async function waitForJournalEnd(
	guildDir: string,
	state: JournalEnd,
	already: readonly JournalEnd[],
	options: { child: NodeChild; timeoutMs: number },
): Promise<void> {
	const deadline = Date.now() + options.timeoutMs;
	const count = (ends: readonly JournalEnd[], wanted: JournalEnd): number => ends.filter((end) => end === wanted).length;
	for (;;) {
		const ends = await journalEnds(guildDir);
		if (count(ends, state) > count(already, state)) return;
		for (const other of ['cancelled', 'stopped'] as const) {
			if (other !== state && count(ends, other) > count(already, other)) throw options.child.failure(`wrote "${other}" in its journal, not "${state}"`);
		}
		if (!options.child.running) throw options.child.failure(`exited before its journal said "${state}"`);
		if (Date.now() > deadline) throw options.child.failure(`did not write "${state}" in its journal within ${options.timeoutMs / 1000} s`);
		await sleep(250);
	}
}
