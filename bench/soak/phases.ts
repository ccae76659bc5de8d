import type { ControlMember } from '@massnick/discord-sandbox';
import { type JournalsOnDisk, readJournals } from '../readJournals.js';
import { injectFault } from './faults.js';
import type { GuildLife } from './GuildLife.js';
import { isRoleGiven, notRenamed, notRestored } from './invariants.js';
import { NAME } from './options.js';
import { operatorRuns } from './operator.js';
import type { ScheduledFault, SoakSchedule } from './schedule.js';
import { say, type Soak, stamp } from './Soak.js';
import { waitFor } from './waitForValue.js';

/** Where each job fell in the request log and the clock, and what the guild showed after it. */
export interface SoakMarks {
	/** The request log's sequence numbers at the rename's start, its (and its rerun's) end and the /massrole's start. */
	jobStart: number;
	renameEnd: number;
	massroleStart: number;
	/** Wall-clock ms. */
	jobStartedAt: number;
	renamedAt: number;
	massroleEndedAt: number;
	/** How the rename ended once the full disk was behind it, before the rerun. */
	renameEndState: string;
	/** The rename's journal as it stood at its end: the /massrole later writes one of its own beside it. */
	renameJournals: JournalsOnDisk;
	notRenamed: number;
	notRestored: number;
	restoreReruns: number;
}

const nameOf = (member: ControlMember): string => `Soak ${member.id}`;
const isRenamed = (member: ControlMember): boolean => member.nick === nameOf(member);

/** The guild as it is, and who may be renamed: not a bot, not the owner, every role below the workers'. */
async function guildNow(soak: Soak): Promise<{ members: ControlMember[]; below: (member: ControlMember) => boolean }> {
	const { control, info } = soak;
	const [members, state] = await Promise.all([control.members(info.guildId), control.state()]);
	const position = new Map(state.roles.map((role) => [role.id, role.position]));
	const bots = state.roles.find((role) => role.name === 'Massnick')!.position;
	const below = (member: ControlMember): boolean => !member.bot && member.id !== info.ownerId && member.roles.every((role) => (position.get(role) ?? 0) < bots);
	return { members, below };
}

/** Each fault once `changed` (read now) reaches its share of `total`. */
async function faultsAlong(soak: Soak, faults: readonly ScheduledFault[], changed: () => Promise<number>, total: number, words: string): Promise<void> {
	for (const { at, fault } of faults) {
		await waitFor(async () => (await changed()) >= at * total, `${Math.round(at * 100)}% ${words}`, 3_600_000);
		await injectFault(soak, fault);
	}
}

/** Until the bot's log shows a job ended past the `ends` first. */
const untilEnded = (soak: Soak, ends: number, what: string, timeoutMs = 3_600_000): Promise<void> =>
	waitFor(async () => (await soak.bots.jobEnds()).length > ends, what, timeoutMs);

/**
 * The soak's jobs, each under its faults: the rename while the guild lives, the operator's rerun
 * without the revoked token, the restore (run again while an original is not back), and the
 * /massrole until its role is deleted.
 */
export async function runPhases(soak: Soak, schedule: SoakSchedule, life: GuildLife, before: ReadonlyMap<string, string | null>): Promise<SoakMarks> {
	const { bots, control, info, log, record } = soak;
	await log.read();
	const jobStart = log.cursor;
	const jobStartedAt = Date.now();
	const eligible = await (async () => {
		const { members, below } = await guildNow(soak);
		return members.filter(below).length;
	})();
	await operatorRuns(soak, 'massnick', { name: NAME });
	await faultsAlong(soak, schedule.rename, () => log.changesSince(jobStart), eligible, 'renamed');
	await untilEnded(soak, record.endsBeforeRenameEnd, 'the rename job to end');
	const renameEndState = (await bots.jobEnds())[record.endsBeforeRenameEnd]!.state;
	say(`  ${stamp(soak)} rename ended (${(await bots.jobEnds()).map((end) => end.state).join(', ')}); the operator reruns without the revoked token`);
	// The guild's life stops with the first job: the rerun, the checks and the restore then see a
	// guild that holds still, so a member who joined after the last job has not been left out by it.
	await life.stop();
	// The operator's rerun: the token taken out of WORKER_TOKENS, the process restarted, the same command.
	await bots.stop();
	bots.tokens = bots.tokens.filter((_, index) => index !== record.revokedWorker);
	await bots.start();
	const endsBeforeRerun = (await bots.jobEnds()).length;
	await operatorRuns(soak, 'massnick', { name: NAME });
	await untilEnded(soak, endsBeforeRerun, 'the rerun to end');
	const renamedAt = Date.now();
	await log.read();
	const renameEnd = log.cursor;
	const renameJournals = await readJournals(soak.guildDir);

	const { members: afterRename, below } = await guildNow(soak);
	const unrenamed = notRenamed(
		afterRename.filter((member) => below(member) && !life.ownNick.has(member.id)).map((member) => member.id),
		afterRename,
		nameOf,
	).length;
	say(`  ${stamp(soak)} renamed; ${unrenamed} eligible members not renamed; /restore`);

	const endsBeforeRestore = (await bots.jobEnds()).length;
	soak.phase = 'restore';
	await log.read();
	const restoreStart = log.cursor;
	await operatorRuns(soak, 'restore', {});
	await faultsAlong(soak, schedule.restore, () => log.changesSince(restoreStart), afterRename.filter(isRenamed).length, 'restored');
	await untilEnded(soak, endsBeforeRestore, 'the restore to end');
	// A change out of its tries under the 5xx is counted failed and keeps the journal open: the
	// operator runs /restore again, as for the rename. Originals: every member the journal holds,
	// back to what they had before, unless they renamed themselves since.
	const notBack = async (): Promise<number> => notRestored(await control.members(info.guildId), before, life.ownNick).length;
	let restoreReruns = 0;
	while ((await notBack()) > 0 && restoreReruns < 2) {
		restoreReruns++;
		const ends = (await bots.jobEnds()).length;
		await operatorRuns(soak, 'restore', {});
		await untilEnded(soak, ends, 'the restore rerun to end', 600_000);
	}
	const unrestored = await notBack();

	// The /massrole: a new role to everyone under the same faults, until a moderator moves it above the
	// workers (the job stops; moved back, the operator runs it again) and then deletes it.
	say(`  ${stamp(soak)} restored; /massrole add of a new role`);
	soak.phase = 'massrole';
	await log.read();
	const massroleStart = log.cursor;
	record.jobRole = await control.createRole(info.guildId, { name: 'Soak role', position: 1 });
	const massroleTotal = (await control.members(info.guildId)).filter((member) => !member.bot).length;
	await operatorRuns(soak, 'massrole add', { role: record.jobRole.id });
	await faultsAlong(soak, schedule.massrole, () => log.changesSince(massroleStart, isRoleGiven), massroleTotal, 'given the role');
	const massroleEndedAt = Date.now();
	bots.stopSampling();
	await bots.stop();
	return {
		jobStart,
		renameEnd,
		massroleStart,
		jobStartedAt,
		renamedAt,
		massroleEndedAt,
		renameEndState,
		renameJournals,
		notRenamed: unrenamed,
		notRestored: unrestored,
		restoreReruns,
	};
}
