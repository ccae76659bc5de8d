/** One level of the guild's shared write cap the bench tries. */
export interface SharedCapLevel {
	/** How the report names it: below, near or above the workers' combined pace. */
	readonly label: string;
	/** Writes the guild takes from every bot together per {@link SharedCapScenario.windowMs}. */
	readonly limit: number;
}

/** One way the workers meet the cap: sharing its rate (`workers.paceSharedLimit` on), or each at its own pace as before. */
export interface SharedCapMode {
	readonly label: string;
	readonly paceSharedLimit: boolean;
}

/**
 * Issue #27's shared cap, side by side: the sandbox's guild-wide write cap (a 429 with scope
 * `shared` past it, for every bot) at a few levels, and at each a rename of every member with the
 * workers sharing the cap's rate and with each at its own pace, each on a fresh guild.
 */
export interface SharedCapScenario {
	/** `shared-cap`, or `shared-cap@<members>` when resized. */
	readonly name: string;
	readonly members: number;
	readonly workers: number;
	/** The cap's window on Discord's clock; the sandbox divides it by {@link timeScale}. */
	readonly windowMs: number;
	/** Each token's own ceiling on Modify Guild Member in the sandbox: 10 per window. */
	readonly perWorkerLimit: number;
	readonly levels: readonly SharedCapLevel[];
	readonly modes: readonly SharedCapMode[];
	readonly timeScale: number;
	/** How long, in real seconds, one run may take before it fails. */
	readonly runTimeoutSeconds: number;
}

/** Where `--scenario shared-cap` alone writes its results, in bench/. */
export const SHARED_CAP_RESULTS_FILE = 'results-shared-cap.json';

/** The case: 1,500 members, 10 workers (100 renames per 10 s together), caps of 20, 90 and 150. */
export const SHARED_CAP_SCENARIO: SharedCapScenario = {
	name: 'shared-cap',
	members: 1500,
	workers: 10,
	windowMs: 10_000,
	perWorkerLimit: 10,
	levels: [
		{ label: 'below', limit: 20 },
		{ label: 'near', limit: 90 },
		{ label: 'above', limit: 150 },
	],
	modes: [
		{ label: 'paced', paceSharedLimit: true },
		{ label: 'today', paceSharedLimit: false },
	],
	timeScale: 10,
	runTimeoutSeconds: 180,
};

/** What `--scenario shared-cap` promises to finish in: two runs of 75 s under the lowest cap, four short ones, and the starts. */
export const SHARED_CAP_BUDGET_SECONDS = 480;
