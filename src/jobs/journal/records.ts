import type { MemberFilterSpec } from '../filters/MemberFilterSpec.js';
import type { RestoreEntry } from '../Plan.js';

/**
 * The lines of a journal file, one JSON object per line (JSON Lines). The format is versioned in
 * the header so a later massnick can still restore from a journal written today.
 *
 * Version 3 adds two lines a standing rule's journal needs to stay bounded (see `compactJournal`):
 * `left` (a member left, and what the job set went with them) and `compacted` (the originals after
 * it are one per member, in id order). Versions 1 and 2 hold neither and read as ever; a version 2
 * journal a rule appends to may get `left` lines before its first compaction writes it anew as 3.
 */

export const JOURNAL_VERSION = 3;

/** Job counts as the status line records them: numbers, or numbers by reason. */
export type JournalCounts = Readonly<Record<string, number | Readonly<Record<string, number>>>>;

/** The first line: what job this is. */
export interface JournalHeader {
	readonly type: 'job';
	readonly version: typeof JOURNAL_VERSION;
	readonly jobId: string;
	readonly guildId: string;
	/** The mass action, by the name it gives itself (`role-add`, …): restore rebuilds it. */
	readonly action: string;
	/** What it sets, as the user gave it: a name template, a role id. */
	readonly target: string;
	/** The job for people, as its status said: `Adding @Event`. */
	readonly title: string;
	/** Only members with this role (`null`: everyone). */
	readonly onlyRoleId: string | null;
	/** Not members with this role. */
	readonly excludeRoleId: string | null;
	/** The finer filters (kind of member, dates, name pattern), when the job had any; absent before them. */
	readonly filters?: MemberFilterSpec | undefined;
	readonly startedBy: { readonly id: string; readonly tag: string };
	/** ISO 8601. */
	readonly startedAt: string;
	/** How many workers split the guild (the partition depends on it). */
	readonly workers: number;
}

/** What `Journal.create` needs: the header without its fixed fields. */
export type JournalHeaderInput = Omit<JournalHeader, 'type' | 'version'>;

/** A member's value before the job (`from`) and the one the job set (`to`). */
export interface OriginalRecord extends RestoreEntry {
	readonly type: 'original';
}

/**
 * How a run ended. `cancelled`: a person stopped it (/cancel, the status's Cancel, `massnick run`
 * interrupted); `stopped`: the process shut down under it (SIGTERM, SIGINT), so `npm start`
 * resumes it like a run whose process died; `restored`: a restore undid it.
 */
export type JournalEndState = 'finished' | 'cancelled' | 'stopped' | 'restored';

const END_STATES: readonly string[] = ['finished', 'cancelled', 'stopped', 'restored'] satisfies readonly JournalEndState[];

/** The job ended this way at `at`; the last status line in a file is its state. */
export interface StatusRecord {
	readonly type: 'status';
	readonly state: JournalEndState;
	readonly at: string;
	readonly counts?: JournalCounts | undefined;
}

/**
 * The member left the guild, and Discord took with them what the job set (a nickname, a role: a
 * member who joins again comes with neither): every original of `id` before this line is void, and
 * a later one, journaled when the job changes them after they rejoin, is their original anew.
 * Written only for an action that says so (`MassAction.entryLife`) and a member the file holds.
 */
export interface LeftRecord {
	readonly type: 'left';
	readonly id: string;
}

/**
 * The file was compacted at `at`: the `entries` lines after this one are originals, one per member,
 * in ascending id order (numeric, as Discord lists members; an id that is no snowflake after them),
 * `runBytes` bytes in all. What follows them was appended since (in journal order, as ever).
 * `dropped` members' originals were left out, no restore being able to use them.
 */
export interface CompactedRecord {
	readonly type: 'compacted';
	readonly at: string;
	readonly entries: number;
	readonly runBytes: number;
	readonly dropped: number;
}

export type JournalRecord = JournalHeader | OriginalRecord | StatusRecord | LeftRecord | CompactedRecord;

/** One line for `entry`, newline included. Key order is fixed so files diff cleanly. */
export function originalLine(entry: RestoreEntry): string {
	return `${JSON.stringify({ type: 'original', id: entry.id, from: entry.from, to: entry.to })}\n`;
}

export function statusLine(state: JournalEndState, at: Date, counts?: JournalCounts): string {
	return `${JSON.stringify({ type: 'status', state, at: at.toISOString(), ...(counts ? { counts } : {}) })}\n`;
}

export function leftLine(id: string): string {
	return `${JSON.stringify({ type: 'left', id })}\n`;
}

export function compactedLine(record: Omit<CompactedRecord, 'type'>): string {
	return `${JSON.stringify({ type: 'compacted', ...record })}\n`;
}

export function headerLine(input: JournalHeaderInput): string {
	const header: JournalHeader = { type: 'job', version: JOURNAL_VERSION, ...input };
	return `${JSON.stringify(header)}\n`;
}

/** Parses one line, or says why it is not a journal record. */
export function parseRecord(line: string): JournalRecord | string {
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch {
		return 'is not valid JSON';
	}
	if (typeof value !== 'object' || value === null) return 'is not an object';
	const record = value as Record<string, unknown>;
	switch (record.type) {
		case 'original':
			if (typeof record.id !== 'string' || !isName(record.from) || !isName(record.to)) return 'is an original with a bad id, from or to';
			return record as unknown as OriginalRecord;
		case 'status':
			if (typeof record.state !== 'string' || !END_STATES.includes(record.state)) return `has an unknown state ${JSON.stringify(record.state)}`;
			return record as unknown as StatusRecord;
		case 'left':
			if (typeof record.id !== 'string') return 'is a left line without an id';
			return record as unknown as LeftRecord;
		case 'compacted':
			if (!isCount(record.entries) || !isCount(record.runBytes) || !isCount(record.dropped)) return 'is a compacted line without its counts';
			return record as unknown as CompactedRecord;
		case 'job':
			if (record.version === 1) return upgradeHeader(record);
			if (record.version !== 2 && record.version !== JOURNAL_VERSION)
				return `is a version ${JSON.stringify(record.version)} header; this massnick reads versions 1 to ${JOURNAL_VERSION}`;
			if (typeof record.jobId !== 'string' || typeof record.guildId !== 'string' || typeof record.action !== 'string' || typeof record.target !== 'string') {
				return 'is a header without jobId, guildId, action or target';
			}
			// Version 3 only adds lines to version 2: its header is the same.
			return { ...record, version: JOURNAL_VERSION } as unknown as JournalHeader;
		default:
			return `has an unknown type ${JSON.stringify(record.type)}`;
	}
}

/**
 * Reads a version 1 header (written before mass actions, when there was one action: its `kind`
 * and `template` are the action and target of versions 2 and 3), so a journal written then still
 * restores. The actions know version 1's `kind` as the name of their first action.
 */
function upgradeHeader(record: Record<string, unknown>): JournalHeader | string {
	const { kind, template, roleId, version: _version, ...rest } = record;
	if (typeof rest.jobId !== 'string' || typeof rest.guildId !== 'string' || typeof kind !== 'string' || typeof template !== 'string') {
		return 'is a version 1 header without jobId, guildId, kind or template';
	}
	return {
		...(rest as Omit<JournalHeader, 'version' | 'action' | 'target' | 'title' | 'onlyRoleId'>),
		version: JOURNAL_VERSION,
		action: kind,
		target: template,
		title: `${kind} “${template}”`,
		onlyRoleId: typeof roleId === 'string' ? roleId : null,
	};
}

function isCount(value: unknown): value is number {
	return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isName(value: unknown): value is string | null {
	return value === null || typeof value === 'string';
}
