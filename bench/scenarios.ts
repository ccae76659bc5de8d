import type { SubjectKind } from './Subject.js';

/**
 * Issue #5's targets for massnick (issue #8's: met with every worker's members intent off), for
 * its renames and its roles given alike.
 */
export interface Targets {
	/** Changes per second over the window, as a share of N tokens × 10 per 10 s. */
	minShareOfCeiling: number;
	max429s: number;
	max403s: number;
	/**
	 * The worst worker's longest time between two changes in the window, in rate-limit windows
	 * (10 s ÷ time scale). A worker at its ceiling waits up to about one window between bursts; one
	 * the boss's listing left without members would wait several.
	 */
	maxWorkerGapWindows: number;
	/** Peak RSS of the bot process, in MB (2^20 bytes). */
	maxPeakRssMB?: number;
	/** From `/massnick` (or `/massrole`) to the first change. */
	maxFirstChangeMs?: number;
}

export interface Scenario {
	name: string;
	members: number;
	workers: number;
	/** The sandbox divides every rate-limit window by this. */
	timeScale: number;
	warmupSeconds: number;
	windowSeconds: number;
	subjects: readonly SubjectKind[];
	targets: Targets;
	/** Why a subject is left out, printed with the results. */
	note?: string;
	/** Run only when named with `--scenario` (too slow for the default run's 10 minutes). */
	optIn?: boolean;
	/**
	 * Also time the boss listing the whole guild alone (`/massnick dry_run:true`, after the
	 * subjects): about 50 s for the 1001 pages of 1M at time scale 20.
	 */
	listing?: boolean;
}

const ALL: readonly SubjectKind[] = ['massnick', 'massnick-role', 'single-token', 'design-2021'];
const RATE_TARGETS = { minShareOfCeiling: 0.97, max429s: 0, max403s: 0, maxWorkerGapWindows: 2 } as const;

/**
 * The scenarios, in the order a default run runs them. All at time scale 20: a 10-per-10-s
 * token allows 20 changes a second, so ten tokens' ceiling is 200 a second.
 */
export const SCENARIOS: readonly Scenario[] = [
	{ name: '20k', members: 20_000, workers: 10, timeScale: 20, warmupSeconds: 2, windowSeconds: 20, subjects: ALL, targets: RATE_TARGETS, listing: true },
	{
		name: '100k',
		members: 100_000,
		workers: 10,
		timeScale: 20,
		warmupSeconds: 2,
		windowSeconds: 30,
		subjects: ALL,
		targets: { ...RATE_TARGETS, maxPeakRssMB: 150 },
		listing: true,
	},
	{
		name: '1m',
		members: 1_000_000,
		workers: 10,
		timeScale: 20,
		warmupSeconds: 2,
		windowSeconds: 30,
		subjects: ['massnick', 'massnick-role', 'single-token'],
		targets: { ...RATE_TARGETS, maxPeakRssMB: 300, maxFirstChangeMs: 2000 },
		note: 'the 2021 design is not run at 1M: ten clients each caching the whole list (the single-token loop alone peaks near 800 MB) would need GBs and minutes of fetching; it is compared at 20k and 100k',
		listing: true,
	},
	{
		name: '10m',
		members: 10_000_000,
		workers: 10,
		timeScale: 20,
		warmupSeconds: 2,
		windowSeconds: 30,
		subjects: ['massnick'],
		targets: { ...RATE_TARGETS, maxPeakRssMB: 1536, maxFirstChangeMs: 2000 },
		note: 'the largest guilds: massnick alone (a baseline would hold ten million members per client); the boss alone would list them in about 500 s at 20×, so the listing is timed up to 1M',
		optIn: true,
	},
];

/** `--quick`: about two minutes. */
export const QUICK_SCENARIOS = ['20k'] as const;
