/**
 * Issue #25's raid cleanup, side by side: massnick with many workers, and the open-source
 * moderation bots' way on one token (raidBaselines.ts), each on a fresh guild with the same raid.
 */
export interface RaidScenario {
	/** `raid`, or `raid@<members>` when the guild's size was overridden. */
	readonly name: string;
	/** The guild's members, the raid accounts and the real joiners among them (and the bots on top). */
	readonly members: number;
	/** Accounts made minutes before they joined, named `free nitro <n>`. */
	readonly raidAccounts: number;
	/** People with old accounts and ordinary names who joined in the same minutes: the filters must leave them alone. */
	readonly realJoiners: number;
	/** massnick's workers; a baseline has one token. */
	readonly workers: number;
	/** The sandbox divides every rate-limit window by this, for every subject alike. */
	readonly timeScale: number;
	/**
	 * How long a baseline runs before it is stopped: on one token it would take hours at Discord's
	 * pace, so past this its time is projected from the rate it kept, and the report says so.
	 */
	readonly baselineSeconds: number;
	/** How long a massnick job may take before the run fails: it is measured to its end, never projected. */
	readonly massnickTimeoutSeconds: number;
}

/** Where `--scenario raid` alone writes its results, in bench/. */
export const RAID_RESULTS_FILE = 'results-raid.json';

/** What `--scenario raid` promises to finish in (about 9 minutes on a quiet machine). */
export const RAID_BUDGET_SECONDS = 720;

/**
 * 10,000 raid accounts among 100,000 members, as the issue asks, at time scale 10: a ban route's
 * 5 per second become 50 a second, and one token's bans one after another keep near that on a
 * busy 2-core machine (about 44 a second; at 20× they kept about half of the 100 a second, the
 * sandbox's own answer times filling the windows, and the time on Discord's windows would be
 * unfair to them). 1,000 real joiners join in the same ten minutes. About 9 minutes in all.
 */
export const RAID_SCENARIO: RaidScenario = {
	name: 'raid',
	members: 100_000,
	raidAccounts: 10_000,
	realJoiners: 1_000,
	workers: 10,
	timeScale: 10,
	baselineSeconds: 45,
	massnickTimeoutSeconds: 240,
};
