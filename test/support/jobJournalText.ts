import { Random } from '@massnick/discord-sandbox';
import { headerLine, leftLine, originalLine } from '../../src/jobs/journal/records.js';
import { compareIds } from '../../src/jobs/journal/runs/lineIds.js';
import { workerIndexOf } from '../../src/workers/partition.js';

/**
 * Journal files written the way jobs write them, for the tests of reading them back by their
 * ordered runs: seeded, so each case is the same on every run.
 */

/** A seeded generator: the sandbox's. */
export function random(seed: number): () => number {
	const generator = new Random(seed);
	return () => generator.next();
}

export function snowflake(rand: () => number): string {
	const ms = BigInt(1e10 + Math.floor(rand() * 3e11));
	return ((ms << 22n) | BigInt(Math.floor(rand() * (1 << 22)))).toString();
}

export const JOURNAL_GUILD = '175928847299117063';

/** A journal's header line, for job `jobId` split between `workers`. */
export function journalHeader(jobId: string, workers: number): string {
	return headerLine({
		jobId,
		guildId: JOURNAL_GUILD,
		action: 'nickname',
		target: 'x',
		title: 'x',
		onlyRoleId: null,
		excludeRoleId: null,
		startedBy: { id: '81384788765712384', tag: 'a' },
		startedAt: '2021-04-01T00:00:00.000Z',
		workers,
	});
}

/**
 * The lines a job writes after its header: passes over the listing (id order), each worker's
 * lines in order, the workers' interleaved by random batches, joiners with any id among them,
 * `left` lines.
 */
export function jobJournalLines(rand: () => number, workers: number, members: string[]): string {
	let text = '';
	const passes = 1 + Math.floor(rand() * 3);
	for (let pass = 0; pass < passes; pass++) {
		const queues = Array.from({ length: workers }, () => [] as string[]);
		for (const id of members) if (rand() < 0.7) queues[workerIndexOf(id, workers)]!.push(id);
		for (const queue of queues) for (let n = Math.floor(rand() * 4); n > 0; n--) queue.splice(Math.floor(rand() * (queue.length + 1)), 0, snowflake(rand));
		while (queues.some((queue) => queue.length > 0)) {
			const queue = queues[Math.floor(rand() * workers)]!;
			for (let n = 1 + Math.floor(rand() * 6); n > 0 && queue.length > 0; n--) {
				const id = queue.shift()!;
				text += originalLine({ id, from: rand() < 0.3 ? null : `p${pass}-${id.slice(-4)}`, to: `t${pass}` });
			}
			if (rand() < 0.02) text += leftLine(members[Math.floor(rand() * members.length)]!);
		}
	}
	return text;
}

/** The order a job or a restore asks for ids: each worker's ascending, the workers' interleaved, some out of order (joiners). */
export function listingOrder(rand: () => number, workers: number, ids: string[]): string[] {
	const queues = Array.from({ length: workers }, () => [] as string[]);
	for (const id of [...new Set(ids)].sort(compareIds)) queues[workerIndexOf(id, workers)]!.push(id);
	const asked: string[] = [];
	while (queues.some((queue) => queue.length > 0)) {
		const queue = queues[Math.floor(rand() * workers)]!;
		for (let n = 1 + Math.floor(rand() * 8); n > 0 && queue.length > 0; n--) asked.push(queue.shift()!);
		if (rand() < 0.05) asked.push(ids[Math.floor(rand() * ids.length)]!);
	}
	return asked;
}
