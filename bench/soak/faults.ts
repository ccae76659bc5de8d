import { setTimeout as sleep } from 'node:timers/promises';
import { readJournals } from '../readJournals.js';
import { operatorRuns, resumeOrRerun } from './operator.js';
import { RequestLogReader } from './RequestLogReader.js';
import type { Fault } from './schedule.js';
import { commandOf, say, type Soak, stamp } from './Soak.js';
import { waitForValue } from './waitForValue.js';

/**
 * How far past its size the journal may grow once the disk is "full" (`ulimit -f`): at about 90
 * bytes an original, some 2,800 more members, a moment of the job at any size.
 */
const DISK_FULL_MARGIN_KIB = 256;

/** The member role a moderator moves above the workers: the busiest, so many members are out of reach at once. */
const BUSY_ROLE = 'Level 10';
/** The workers' role, as the sandbox names it. */
const WORKERS_ROLE = 'Massnick';

/** Brings `fault` about on the sandbox and the bots, and records what the invariants need of it. */
export async function injectFault(soak: Soak, fault: Fault): Promise<void> {
	say(`  ${stamp(soak)} ${fault}`);
	await FAULTS[fault](soak);
}

/** The request log's latest sequence number. */
const lastSeq = (soak: Soak): Promise<number> => RequestLogReader.lastSeq(soak.control);

/** Counts the next `ms` as under a fault, for the share of the ceiling over the fault-free seconds. */
const markFault = (soak: Soak, ms: number): void => void soak.record.faultTimes.push({ from: Date.now(), to: Date.now() + ms });

/** Waits for the job after the `endsBefore` first ones to end, and prints how. */
async function nextEnd(soak: Soak, endsBefore: number, what: string, timeoutMs: number) {
	const end = await waitForValue(async () => (await soak.bots.jobEnds())[endsBefore], what, timeoutMs);
	say(`    the job ${end.state}: ${end.message || '(no error logged)'}`);
	return end;
}

/** The workers' role as the guild has it now. */
async function workersRole(soak: Soak) {
	return (await soak.control.state()).roles.find((candidate) => candidate.name === WORKERS_ROLE)!;
}

const FAULTS: Record<Fault, (soak: Soak) => Promise<void>> = {
	async '5xx burst'(soak) {
		markFault(soak, 5000);
		await soak.control.faults({ errorRate: 0.3 });
		await sleep(5000);
		await soak.control.faults({ errorRate: 0 });
	},

	async 'latency past rest.timeoutMs'(soak) {
		const ms = soak.options.restTimeoutMs + 1000;
		markFault(soak, ms + 4000);
		await soak.control.faults({ latencyMs: ms });
		await sleep(3000);
		await soak.control.faults({ latencyMs: 0 });
	},

	async 'gateway drop and op 7'(soak) {
		markFault(soak, 3000);
		await soak.control.faults({ closeGateway: {} });
		await soak.control.faults({ reconnect: {} });
	},

	// Many members are out of reach at once, then back within it.
	async 'role moved above the workers'(soak) {
		const { control, info } = soak;
		const role = (await control.state()).roles.find((candidate) => candidate.name === BUSY_ROLE)!;
		const massnick = await workersRole(soak);
		const holders = (await control.members(info.guildId)).filter((member) => member.roles.includes(role.id)).length;
		const seq = await lastSeq(soak);
		markFault(soak, 10_000);
		await control.editRole(info.guildId, role.id, { position: massnick.position + 1 });
		const move: { seq: number; back?: number; holders: number } = { seq, holders };
		soak.record.roleMoves.push(move);
		await sleep(10_000);
		move.back = await lastSeq(soak);
		await control.editRole(info.guildId, role.id, { position: role.position });
	},

	async 'SIGKILL, restart under 5xx'(soak) {
		markFault(soak, 15_000);
		soak.record.kills.push(await lastSeq(soak));
		await soak.bots.kill();
		await soak.control.faults({ errorRate: 0.15 });
		await soak.bots.start();
		await soak.control.faults({ errorRate: 0 });
		const { command, options } = commandOf(soak);
		await resumeOrRerun(soak, command, options);
	},

	// The disk fills up while the process is down: it comes back with room for a few thousand
	// more originals (`ulimit -f`, so the kernel refuses the write past it), and the job must stop.
	async 'SIGKILL, restart with the journal disk full'(soak) {
		const { bots, record } = soak;
		const { command, options } = commandOf(soak);
		const from = Date.now();
		record.kills.push(await lastSeq(soak));
		await bots.kill();
		const journalKiB = Math.ceil((await readJournals(soak.guildDir)).largestBytes / 1024);
		const limitKiB = journalKiB + DISK_FULL_MARGIN_KIB;
		const endsBefore = (await bots.jobEnds()).length;
		await bots.start({ fileSizeLimitKiB: limitKiB });
		say(`    journal ${journalKiB} KiB, files limited to ${limitKiB} KiB`);
		await resumeOrRerun(soak, command, options);
		record.diskFull = { journalKiB, limitKiB, ...(await nextEnd(soak, endsBefore, 'the job to stop on the full disk', 1_800_000)) };
		// Space freed: the process restarted without the limit, as the operator would once the disk has room.
		await bots.stop();
		await bots.start();
		say(`  ${stamp(soak)} space freed, restarted`);
		await resumeOrRerun(soak, command, options);
		record.endsBeforeRenameEnd = (await bots.jobEnds()).length;
		record.faultTimes.push({ from, to: Date.now() });
	},

	async 'worker token revoked'(soak) {
		const revoked = soak.options.workers - 1;
		soak.record.revokedWorker = revoked;
		markFault(soak, 5000);
		await soak.control.faults({ revokeToken: { appId: soak.sandbox.workerIds[revoked] } });
	},

	// A moderator moves the /massrole's role above the workers: the job stops; moved back, the operator runs it again.
	async 'its role moved above the workers'(soak) {
		const { control, info, record } = soak;
		const role = record.jobRole!;
		const massnick = await workersRole(soak);
		const endsBefore = (await soak.bots.jobEnds()).length;
		const seq = await lastSeq(soak);
		await control.editRole(info.guildId, role.id, { position: massnick.position + 1 });
		const end = await nextEnd(soak, endsBefore, 'the /massrole to stop at its role moved', 600_000);
		record.jobRoleMoved = { seq, back: await lastSeq(soak), ...end };
		await control.editRole(info.guildId, role.id, { position: 1 });
		await operatorRuns(soak, 'massrole add', { role: role.id });
	},

	async 'its role deleted'(soak) {
		const endsBefore = (await soak.bots.jobEnds()).length;
		const seq = await lastSeq(soak);
		await soak.control.deleteRole(soak.info.guildId, soak.record.jobRole!.id);
		soak.record.jobRoleDeleted = { seq, ...(await nextEnd(soak, endsBefore, 'the /massrole to stop at its role deleted', 600_000)) };
	},
};
