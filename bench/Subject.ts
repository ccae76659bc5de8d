/** The three programs the benchmark measures side by side. */
export const SUBJECT_KINDS = ['massnick', 'single-token', 'design-2021'] as const;

export type SubjectKind = (typeof SUBJECT_KINDS)[number];

/**
 * One program under measurement, started, logged in and idle. The benchmark measures from
 * {@link Subject.go} on: login and startup are the same for every design and not what we compare.
 */
export interface Subject {
	readonly kind: SubjectKind;
	/** The node process whose memory and CPU are read. */
	readonly pid: number;
	/** Bot tokens renaming: the ceiling is this many renames per rate-limit window. */
	readonly tokens: number;
	/** The bot user ids of those tokens, as the sandbox's request log names them. */
	readonly renamerIds: readonly string[];
	/** Who pages through the member list, as massnick's ready line names them; `null` for a baseline (it fetches over the gateway). */
	readonly listedBy: readonly string[] | null;
	/** Whether the process is still alive (a crash mid-window fails the measurement). */
	readonly running: boolean;
	/** Starts the renaming; resolves once asked. */
	go(): Promise<void>;
	/** Anything worth showing when the subject fails to rename, e.g. the boss's reply. */
	diagnose(): Promise<string>;
	/** An error naming the subject, with the end of its log. */
	failure(message: string): Error;
	stop(): Promise<void>;
}
