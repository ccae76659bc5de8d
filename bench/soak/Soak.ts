import type { ControlRole, SandboxControl } from '@massnick/discord-sandbox';
import type { SandboxInfo, SandboxProcess } from '../SandboxProcess.js';
import type { JobEnd } from './invariants.js';
import { NAME, type SoakOptions } from './options.js';
import type { RequestLogReader } from './RequestLogReader.js';
import type { SoakBots } from './SoakBots.js';

/** Which job of the soak is running. */
export type Phase = 'rename' | 'restore' | 'massrole';

/** What the faults did and where they fell in the request log, for the invariants. */
export interface SoakRecord {
	/** Fault intervals in wall-clock ms, for the fault-free stretches' share of the ceiling. */
	faultTimes: Array<{ from: number; to: number }>;
	/** Each move of a member role above the workers: the log's sequence number then and when it was moved back. */
	roleMoves: Array<{ seq: number; back?: number; holders: number }>;
	/** The log's sequence number at each SIGKILL. */
	kills: number[];
	revokedWorker?: number;
	/** Why the bot did not resume the job after a restart, each time, so the operator ran the command again. */
	notResumed: string[];
	/** How many jobs had ended before the rename's own end: the one the full disk stopped. */
	endsBeforeRenameEnd: number;
	/** The full disk: the limit, and how the job it stopped ended, as the bot's log says. */
	diskFull?: { journalKiB: number; limitKiB: number } & JobEnd;
	/** The /massrole's role, and where its move and delete fell in the request log, with how the job ended each time. */
	jobRole?: ControlRole;
	jobRoleMoved?: { seq: number; back: number } & JobEnd;
	jobRoleDeleted?: { seq: number } & JobEnd;
}

/** One soak under way: what it runs on, the bots, the request log, and what the faults did. */
export interface Soak {
	readonly options: SoakOptions;
	readonly sandbox: SandboxProcess;
	readonly control: SandboxControl;
	readonly info: SandboxInfo;
	/** `<data dir>/<guild id>`: the journals. */
	readonly guildDir: string;
	readonly bots: SoakBots;
	readonly log: RequestLogReader;
	readonly record: SoakRecord;
	phase: Phase;
	/** Wall-clock ms at the start. */
	readonly started: number;
}

/** The command that runs the phase's job, as the operator types it again. */
export function commandOf(soak: Soak): { command: string; options: Record<string, unknown> } {
	if (soak.phase === 'restore') return { command: 'restore', options: {} };
	if (soak.phase === 'massrole') return { command: 'massrole add', options: { role: soak.record.jobRole?.id } };
	return { command: 'massnick', options: { name: NAME } };
}

/** `[123 s]`: the time since the soak started, at the head of a line it prints. */
export function stamp(soak: Pick<Soak, 'started'>): string {
	return `[${((Date.now() - soak.started) / 1000).toFixed(0)} s]`;
}

/** Prints a line of the soak's report. */
export const say = (line: string): void => void process.stdout.write(`${line}\n`);
