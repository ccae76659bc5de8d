import type { JournalHeader, JournalState, JournalSummary } from '../../src/jobs/journal/Journal.js';

export const FLEET_GUILD = '175928847299117063';

/** The header a fleet pod writes for `/massnick name:"Fleet {username}"` over 3 workers; `overrides` set what a test is about. */
export function fleetHeader(jobId: string, overrides: Partial<JournalHeader> = {}): JournalHeader {
	return {
		type: 'job',
		version: 3,
		jobId,
		guildId: FLEET_GUILD,
		action: 'nickname',
		target: 'Fleet {username}',
		title: 'Renaming to “Fleet {username}”',
		onlyRoleId: null,
		excludeRoleId: null,
		startedBy: { id: '1', tag: 'alice' },
		startedAt: '2026-12-01T10:00:00.000Z',
		workers: 3,
		...overrides,
	};
}

/** The file of worker `workerId` (`undefined`: every worker's) in `state`, as `Journal.list` sums it up. */
export function fleetFile(jobId: string, workerId: number | undefined, state: JournalState, overrides: Partial<JournalHeader> = {}): JournalSummary {
	return { path: `/v/worker-${workerId}/${FLEET_GUILD}/${jobId}.jsonl`, workerId, header: fleetHeader(jobId, overrides), state };
}
