import { type ChangeRoute, RENAME, ROLE_ADD } from './ChangeRoute.js';

/**
 * The programs the benchmark measures side by side: massnick renaming every member
 * (`/massnick`), massnick giving every member a role (`/massrole add`, the same process setup),
 * massnick cleaning the decorated names (`/sanitize`, on a guild generated with some), and the
 * two renaming baselines.
 */
export const SUBJECT_KINDS = ['massnick', 'massnick-role', 'massnick-sanitize', 'single-token', 'design-2021'] as const;

export type SubjectKind = (typeof SUBJECT_KINDS)[number];

/** The subjects that run massnick itself, held to the targets. */
export const MASSNICK_KINDS = ['massnick', 'massnick-role', 'massnick-sanitize'] as const satisfies readonly SubjectKind[];

export type MassnickKind = (typeof MASSNICK_KINDS)[number];

export function isMassnick(kind: SubjectKind): kind is MassnickKind {
	return (MASSNICK_KINDS as readonly SubjectKind[]).includes(kind);
}

/** What the bench counts as one change of each subject: a rename (a name cleaned is one too), or for massnick-role a role given. */
export const CHANGES: Readonly<Record<SubjectKind, ChangeRoute>> = {
	massnick: RENAME,
	'massnick-role': ROLE_ADD,
	'massnick-sanitize': RENAME,
	'single-token': RENAME,
	'design-2021': RENAME,
};

/**
 * One program under measurement, started, logged in and idle. The benchmark measures from
 * {@link Subject.go} on: login and startup are the same for every design and not what we compare.
 */
export interface Subject {
	readonly kind: SubjectKind;
	/** The node process whose memory and CPU are read. */
	readonly pid: number;
	/** Bot tokens making changes: the ceiling is this many changes per rate-limit window. */
	readonly tokens: number;
	/** The bot user ids of those tokens (massnick's workers, a baseline's clients), as the sandbox's request log names them. */
	readonly workerIds: readonly string[];
	/** What one of its changes is in the sandbox's request log ({@link CHANGES} of its kind). */
	readonly change: ChangeRoute;
	/** Who pages through the member list, as massnick's ready line names them; `null` for a baseline (it fetches over the gateway). */
	readonly listedBy: readonly string[] | null;
	/** Whether the process is still alive (a crash mid-window fails the measurement). */
	readonly running: boolean;
	/**
	 * Starts the changes; resolves once asked, with the moment (Unix ms) the work was set going:
	 * just before Start is pressed on massnick's preview (just before the command, for one that
	 * runs without a preview), or just before the baseline's `go`.
	 */
	go(): Promise<number>;
	/** Anything worth showing when the subject changes nobody, e.g. the boss's reply. */
	diagnose(): Promise<string>;
	/** An error naming the subject, with the end of its log. */
	failure(message: string): Error;
	stop(): Promise<void>;
}
