import type { RestoreEntry } from '../planner.js';

/**
 * The lines of a journal file, one JSON object per line (JSON Lines). The format is versioned in
 * the header so a later massnick can still restore from a journal written today.
 */

export const JOURNAL_VERSION = 1;

export type JournalKind = 'rename' | 'restore' | 'clear';

/** Job counts as the status line records them: numbers, or numbers by reason. */
export type JournalCounts = Readonly<Record<string, number | Readonly<Record<string, number>>>>;

/** The first line: what job this is. */
export interface JournalHeader {
	readonly type: 'job';
	readonly version: typeof JOURNAL_VERSION;
	readonly jobId: string;
	readonly guildId: string;
	readonly kind: JournalKind;
	/** The name template as the user wrote it; `null` for a restore. */
	readonly template: string | null;
	readonly roleId: string | null;
	readonly excludeRoleId: string | null;
	readonly startedBy: { readonly id: string; readonly tag: string };
	/** ISO 8601. */
	readonly startedAt: string;
	/** How many workers split the guild (the partition depends on it). */
	readonly workers: number;
	/** For a restore: the rename job it undoes. */
	readonly undoes?: string | undefined;
}

/** What `Journal.create` needs: the header without its fixed fields. */
export type JournalHeaderInput = Omit<JournalHeader, 'type' | 'version'>;

/** A member's nickname before the job (`from`) and the one the job set (`to`). */
export interface OriginalRecord extends RestoreEntry {
	readonly type: 'original';
}

export type JournalEndState = 'finished' | 'cancelled' | 'restored';

/** The job ended this way at `at`; the last status line in a file is its state. */
export interface StatusRecord {
	readonly type: 'status';
	readonly state: JournalEndState;
	readonly at: string;
	readonly counts?: JournalCounts | undefined;
}

export type JournalRecord = JournalHeader | OriginalRecord | StatusRecord;

/** One line for `entry`, newline included. Key order is fixed so files diff cleanly. */
export function originalLine(entry: RestoreEntry): string {
	return `${JSON.stringify({ type: 'original', id: entry.id, from: entry.from, to: entry.to })}\n`;
}

export function statusLine(state: JournalEndState, at: Date, counts?: JournalCounts): string {
	return `${JSON.stringify({ type: 'status', state, at: at.toISOString(), ...(counts ? { counts } : {}) })}\n`;
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
			if (record.state !== 'finished' && record.state !== 'cancelled' && record.state !== 'restored') return `has an unknown state ${JSON.stringify(record.state)}`;
			return record as unknown as StatusRecord;
		case 'job':
			if (record.version !== JOURNAL_VERSION) return `is a version ${JSON.stringify(record.version)} header; this massnick reads version ${JOURNAL_VERSION}`;
			if (typeof record.jobId !== 'string' || typeof record.guildId !== 'string' || typeof record.kind !== 'string') return 'is a header without jobId, guildId or kind';
			return record as unknown as JournalHeader;
		default:
			return `has an unknown type ${JSON.stringify(record.type)}`;
	}
}

function isName(value: unknown): value is string | null {
	return value === null || typeof value === 'string';
}
