import type { Random } from '@massnick/discord-sandbox';

/** What can come at massnick during the soak (faults.ts says how each is brought about). */
export type Fault =
	| '5xx burst'
	| 'latency past rest.timeoutMs'
	| 'gateway drop and op 7'
	| 'role moved above the workers'
	| 'SIGKILL, restart under 5xx'
	| 'SIGKILL, restart with the journal disk full'
	| 'worker token revoked'
	| 'its role moved above the workers'
	| 'its role deleted';

/** A fault, once this share of the phase's members has been changed. */
export interface ScheduledFault {
	at: number;
	fault: Fault;
}

/** The faults of each job, in the order they come. */
export interface SoakSchedule {
	rename: ScheduledFault[];
	restore: ScheduledFault[];
	massrole: ScheduledFault[];
}

/**
 * The guild's own life, the whole first job (GuildLife.ts): each tick some members join, some of
 * the first members leave, and one renames themselves.
 */
export const GUILD_LIFE = { tickMs: 1000, joins: 3, leaves: 2, ownNicks: 1 } as const;
const LIFE_WORDS = `members join ${GUILD_LIFE.joins}/s, leave ${GUILD_LIFE.leaves}/s, rename themselves ${GUILD_LIFE.ownNicks}/s`;

/** The rename's faults, each at a share of the job done. */
const RENAME_FAULTS: Fault[] = [
	'5xx burst',
	'5xx burst',
	'5xx burst',
	'latency past rest.timeoutMs',
	'gateway drop and op 7',
	'gateway drop and op 7',
	'role moved above the workers',
	'SIGKILL, restart under 5xx',
	'SIGKILL, restart under 5xx',
	'SIGKILL, restart under 5xx',
];

const byShare = (a: ScheduledFault, b: ScheduledFault): number => a.at - b.at;

/**
 * Each fault at a share of the rename job done; the restore gets a burst and a kill of its own;
 * the /massrole its own burst and drop, and its role moved out of reach, then deleted. The
 * later faults are drawn after the first ones, so a seed keeps the schedule it had before them;
 * `random` then goes on to the guild's life.
 */
export function soakSchedule(random: Random): SoakSchedule {
	const rename: ScheduledFault[] = [...RENAME_FAULTS.map((fault) => ({ at: 0.05 + random.next() * 0.7, fault })), { at: 0.85, fault: 'worker token revoked' }];
	rename.sort(byShare);
	const restore: ScheduledFault[] = [
		{ at: 0.2 + random.next() * 0.3, fault: '5xx burst' },
		{ at: 0.5 + random.next() * 0.3, fault: 'SIGKILL, restart under 5xx' },
	];
	rename.push({ at: 0.05 + random.next() * 0.6, fault: 'SIGKILL, restart with the journal disk full' });
	rename.sort(byShare);
	// Early in the /massrole, so the phase stays short: the job stops at the delete, and the guild is not given the role at all.
	const massrole: ScheduledFault[] = [
		{ at: 0.02 + random.next() * 0.1, fault: '5xx burst' },
		{ at: 0.02 + random.next() * 0.1, fault: 'gateway drop and op 7' },
		{ at: 0.12 + random.next() * 0.08, fault: 'its role moved above the workers' },
		{ at: 0.22 + random.next() * 0.13, fault: 'its role deleted' },
	];
	massrole.sort(byShare);
	return { rename, restore, massrole };
}

/** How many times in the schedule a fault comes. */
export function countOf(schedule: SoakSchedule, fault: Fault): number {
	return [...schedule.rename, ...schedule.restore, ...schedule.massrole].filter((scheduled) => scheduled.fault === fault).length;
}

/** The schedule as the results file records it. */
export function scheduleRecord(schedule: SoakSchedule): SoakSchedule & { always: string } {
	return { ...schedule, always: LIFE_WORDS };
}

/** The schedule as the soak prints it first, a line a phase. */
export function describeSchedule(schedule: SoakSchedule): string[] {
	const list = (faults: readonly ScheduledFault[]): string => faults.map(({ at, fault }) => `${Math.round(at * 100)}% ${fault}`).join('; ');
	return [
		`  always: members join (${GUILD_LIFE.joins}/s), leave (${GUILD_LIFE.leaves}/s) and rename themselves (${GUILD_LIFE.ownNicks}/s)`,
		`  rename: ${list(schedule.rename)}; then the rerun without the revoked token`,
		`  restore: ${list(schedule.restore)}`,
		`  massrole: ${list(schedule.massrole)} (after the move, the operator runs it again)`,
	];
}
