import { setTimeout as sleep } from 'node:timers/promises';
import type { ChangeRoute } from '../ChangeRoute.js';
import { busyShare, readMachineCpu } from '../machineCpu.js';
import { type GuildSnapshot, readGuildSnapshot } from './GuildSnapshot.js';
import { measureRaidRequests } from './measureRaidRequests.js';
import type { RaidOperationSpec } from './raidOperations.js';
import { type RaidRunResult, type RaidSubject, raidRunResult } from './RaidRunResult.js';
import type { RaidGuild } from './startRaidGuild.js';
import { touchedOutsideRaid } from './touchedOutsideRaid.js';

/** How a step's subject ran: when it was set going, and when a deadline stopped it. */
export interface StepRun {
	/** Unix ms of go: massnick's job set going from its preview (invokeJob.ts), or just before a baseline's first request. */
	startedAt: number;
	/** Unix ms of the deadline that stopped a baseline with accounts left; null when it ran to its end. */
	stoppedAt: number | null;
}

export interface RaidStep {
	spec: RaidOperationSpec;
	subject: RaidSubject;
	label: string;
	tokens: number;
	/** The bot user ids whose requests are the subject's: massnick's boss and workers, a baseline's one token. */
	botIds: ReadonlySet<string>;
	change: ChangeRoute;
	/** The guild as the step finds it, when the previous step read it already. */
	before?: GuildSnapshot;
	/** discord.js's REST offset for the snapshots' ban-list reads, scaled as the subjects' is. */
	offsetMs: number;
	/** Sets the subject going and resolves once it is done (or stopped). */
	run: () => Promise<StepRun>;
}

/** Discord's longest window a step uses, 30 s (the members gateway request's); the next step waits it out, ÷ time scale. */
const LONGEST_WINDOW_MS = 30_000;

/**
 * One step of the cleanup, measured from the sandbox's side: the guild read before (members,
 * timeouts, the ban list); clean rate-limit windows waited for; the request log's position
 * noted; the subject run; then the log since and the guild again. Times, requests and 429s come
 * from the log, what was done and whom it touched from the two readings of the guild.
 */
export async function measureRaidStep(guild: RaidGuild, step: RaidStep): Promise<{ result: RaidRunResult; after: GuildSnapshot }> {
	const { sandbox } = guild;
	const before = step.before ?? (await readGuildSnapshot(sandbox, step.offsetMs));
	await sleep(Math.ceil(LONGEST_WINDOW_MS / guild.timeScale) + 500);
	const { lastSeq } = await sandbox.control.requests(0, 1);
	const cpuBefore = await readMachineCpu();
	const ran = await step.run();
	const cpuAfter = await readMachineCpu();
	const { requests } = await sandbox.control.requests(lastSeq);
	const after = await readGuildSnapshot(sandbox, step.offsetMs);
	const measured = measureRaidRequests(requests, step.botIds, step.change);
	const done = guild.raidIds.filter((id) => step.spec.done(after, id)).length;
	const result = raidRunResult({
		operation: step.spec.operation,
		subject: step.subject,
		label: step.label,
		tokens: step.tokens,
		accounts: guild.raidIds.length,
		done,
		startedAt: ran.startedAt,
		stoppedAt: ran.stoppedAt,
		requests: measured,
		outsideRaid: touchedOutsideRaid(before, after, guild.raid, measured.writeTargets),
		machineBusy: busyShare(cpuBefore, cpuAfter),
	});
	return { result, after };
}
