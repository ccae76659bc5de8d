import type { ControlMember } from '@massnick/discord-sandbox';
import { sanitizeFallbackOf } from './massnickJobs.js';
import type { RequestTally } from './RequestTally.js';
import type { SandboxProcess } from './SandboxProcess.js';

/** The decorated members of one style below the bots' role, and how many of them show their plain name now. */
export interface StyleOutcome {
	inReach: number;
	cleaned: number;
}

/**
 * Where `/sanitize` left the guild, read from the sandbox once the subject stopped: who it
 * changed (the request log), what every member shows now and what each decorated member was
 * drawn from (the control API's member list, whose `decoration.plain` is the readable name a
 * decoration was drawn over). A member is in reach below the bots' role and when not the owner,
 * as the owner runs the command; a decorated member in reach is cleaned when it shows its plain
 * name (or, with nothing readable in it, the fallback the bench gives: `Member {id}`).
 */
export interface SanitizeOutcome {
	/** Whether the job's changes stopped before the subject was (the scenario waited); otherwise it was stopped after the window. */
	ranToEnd: boolean;
	/** Members generated with a decorated name. */
	decorated: number;
	/** Those below the bots' role, not the owner: whom `/sanitize` should clean. */
	decoratedInReach: number;
	/** Members changed (a 200 to the subject's PATCH), each counted once. */
	changed: number;
	/** Members changed more than once. */
	changedTwice: number;
	/** Members changed that were not decorated members in reach: nobody else should be. */
	changedOthers: number;
	/** Decorated members changed who do not show their plain name now. */
	changedNotPlain: number;
	/** Decorated members in reach who show their plain name now. */
	cleaned: number;
	/** `cleaned ÷ decoratedInReach`, when the job ran to its end. */
	cleanedShare: number | null;
	byStyle: Record<string, StyleOutcome>;
	/** From the first change to the last, when the job ran to its end. */
	firstToLastChangeMs: number | null;
	/**
	 * Every change of the job as a share of the ceiling, when it ran to its end: changes ÷ (the
	 * first to the last change, plus the last change's rate-limit window) ÷ the ceiling. Unlike the
	 * window's share it holds the start and the tail, where workers whose part of the guild had
	 * fewer decorated members have finished.
	 */
	wholeJobShareOfCeiling: number | null;
	/**
	 * Per worker, in token order: its changes, and when its last one came (ms after the job's
	 * first change). Each worker changes its own part of the guild (`(id >> 22) % workers`), so one
	 * whose part holds more decorated members ends later: the tail the whole job's share holds.
	 */
	workers: Array<{ changes: number; lastChangeMs: number | null }>;
	/**
	 * The best share of the ceiling the whole job could have had with its workers' parts as they
	 * are: the mean worker's changes ÷ the busiest worker's (it ends the job, at the ceiling).
	 */
	partitionBoundShare: number | null;
	/** When it ran to its end, a few decorated members in reach not cleaned, as `style: shown name`. */
	notCleaned: string[];
}

/** The sandbox's role of our bots: members below it are in reach. */
const BOTS_ROLE = 'Massnick';

export async function readSanitizeOutcome(
	sandbox: SandboxProcess,
	tally: RequestTally,
	options: { ranToEnd: boolean; ceilingPerSecond: number; rateLimitWindowMs: number; workerIds: readonly string[] },
): Promise<SanitizeOutcome> {
	const [{ roles }, members] = await Promise.all([sandbox.control.state(), sandbox.control.members(sandbox.info.guildId)]);
	const bots = roles.find((role) => role.name === BOTS_ROLE);
	if (!bots) throw new Error(`the sandbox guild has no role named ${BOTS_ROLE}`);
	const positions = new Map(roles.map((role) => [role.id, role.position]));
	const inReach = (member: ControlMember): boolean =>
		!member.bot && member.id !== sandbox.info.ownerId && member.roles.every((role) => (positions.get(role) ?? 0) < bots.position);
	const shown = (member: ControlMember): string => member.nick ?? member.globalName ?? member.username;
	const plain = (member: ControlMember): string | undefined => (member.decoration ? (member.decoration.plain ?? sanitizeFallbackOf(member.id)) : undefined);

	const times = new Map<string, number>();
	for (const id of tally.changedTargets) times.set(id, (times.get(id) ?? 0) + 1);
	let decorated = 0;
	let decoratedInReach = 0;
	let cleaned = 0;
	let changedOthers = 0;
	let changedNotPlain = 0;
	const byStyle: Record<string, StyleOutcome> = {};
	const notCleaned: string[] = [];
	for (const member of members) {
		const reach = member.decoration !== undefined && inReach(member);
		const clean = reach && shown(member) === plain(member);
		if (member.decoration) {
			decorated++;
			if (reach) {
				decoratedInReach++;
				const style = (byStyle[member.decoration.style] ??= { inReach: 0, cleaned: 0 });
				style.inReach++;
				if (clean) {
					cleaned++;
					style.cleaned++;
				} else if (options.ranToEnd && notCleaned.length < 5) notCleaned.push(`${member.decoration.style}: ${JSON.stringify(shown(member))}`);
			}
		}
		if (!times.has(member.id)) continue;
		if (!reach) changedOthers++;
		else if (!clean) changedNotPlain++;
	}
	const first = tally.changedAt[0];
	const workers = options.workerIds.map((id) => {
		const changes = tally.changedAtByBot.get(id) ?? [];
		const lastAt = changes.at(-1);
		return { changes: changes.length, lastChangeMs: lastAt === undefined || first === undefined ? null : Math.round(lastAt - first) };
	});
	const busiest = Math.max(0, ...workers.map((worker) => worker.changes));
	const last = tally.changedAt.at(-1);
	const span = options.ranToEnd && first !== undefined && last !== undefined ? last - first : null;
	return {
		ranToEnd: options.ranToEnd,
		decorated,
		decoratedInReach,
		changed: times.size,
		changedTwice: [...times.values()].filter((count) => count > 1).length,
		changedOthers,
		changedNotPlain,
		cleaned,
		cleanedShare: options.ranToEnd && decoratedInReach > 0 ? Math.round((cleaned / decoratedInReach) * 10_000) / 10_000 : null,
		byStyle: Object.fromEntries(Object.entries(byStyle).sort(([a], [b]) => (a < b ? -1 : 1))),
		firstToLastChangeMs: span === null ? null : Math.round(span),
		wholeJobShareOfCeiling:
			span === null ? null : Math.round((tally.changedAt.length / ((span + options.rateLimitWindowMs) / 1000) / options.ceilingPerSecond) * 10_000) / 10_000,
		workers,
		partitionBoundShare: busiest > 0 ? Math.round((tally.changedAt.length / workers.length / busiest) * 10_000) / 10_000 : null,
		notCleaned,
	};
}
