import { SERVER_LIMITS } from '../src/doctor/serverLimits.js';
import type { SubjectKind } from './Subject.js';
import { productRestOffsetMs, scaledRestOffsetMs, type SubjectRun } from './SubjectRun.js';

/**
 * Issue #5's targets for massnick (issue #8's: met with every worker's members intent off), for
 * its renames and its roles given alike.
 */
export interface Targets {
	/** Changes per second over the window, as a share of N tokens × 10 per 10 s. */
	minShareOfCeiling?: number;
	/**
	 * Each token's changes from one window's first change to its last window's first change, as a
	 * share of 10 per window (SubjectResult's `bursts.share`). Free of the window's phase: on long
	 * rate-limit windows a fixed window holds a whole number of bursts, so the count-based share
	 * jumps by a tenth with where the bursts fall.
	 */
	minBurstShare?: number;
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
	/** From `/massnick` (or `/massrole`, `/sanitize`) to the first change. */
	maxFirstChangeMs?: number;
	/**
	 * A run's CPU per 1,000 changes ÷ that of the run it names in {@link SubjectRun.cpuComparedWith},
	 * measured minutes apart on the same sandbox: what every member filter costs a rename job.
	 */
	maxCpuRatio?: number;
}

export interface Scenario {
	name: string;
	members: number;
	workers: number;
	/** The sandbox divides every rate-limit window by this. */
	timeScale: number;
	/** The share of generated members whose shown name is decorated (the sandbox's `--decorated-names`); 0 when absent. */
	decoratedNames?: number;
	/**
	 * Lets `/sanitize` run to its end after the window (until its changes stop), so the check of
	 * the guild's end state covers every decorated member; without it the check covers the members
	 * changed before the subject was stopped.
	 */
	sanitizeUntilDone?: boolean;
	warmupSeconds: number;
	windowSeconds: number;
	subjects: readonly SubjectKind[];
	targets: Targets;
	/** Why a subject is left out, printed with the results. */
	note?: string;
	/** Run only when named with `--scenario` (too slow for the default run's 10 minutes). */
	optIn?: boolean;
	/**
	 * What to measure, one after another, when not each of {@link subjects} once with
	 * {@link workers} tokens and the product's REST offset scaled: an opt-in study varies one of them.
	 */
	runs?: readonly SubjectRun[];
	/**
	 * Also read each massnick process's event-loop delay, through a preload (`eventLoopProbe.ts`)
	 * that leaves the bot's code as it is.
	 */
	probeEventLoop?: boolean;
	/** Where a run of this scenario alone, without overrides, writes its results: a file of its own in bench/. */
	resultsFile?: string;
	/** The time a run of this scenario promises to finish in, when more than the default 600 s. */
	budgetSeconds?: number;
	/**
	 * Also time the boss listing the whole guild alone (`/massnick dry_run:true`, after the
	 * subjects): about 50 s for the 1001 pages of 1M at time scale 20.
	 */
	listing?: boolean;
	/**
	 * The scenario's sandbox holds more bots than one Discord server can (50 integrations): a study
	 * of one process, whose rows past 49 workers no real server runs.
	 */
	beyondOneServer?: boolean;
}

/** discord.js's REST offset, in ms, the `realtime` scenario compares: discord.js's default (massnick's until this study), and two smaller. */
const REALTIME_OFFSETS_MS = [50, 10, 0] as const;
/**
 * Worker tokens in one process, for the `tokens` scenario: 49, the most one server holds (50
 * integrations, the boss among them, and no other bot), then counts only several servers (or
 * none) could hold, to find where one process stops keeping up.
 */
const TOKEN_COUNTS = [SERVER_LIMITS.integrations - 1, 100, 200, 400] as const;

const ALL: readonly SubjectKind[] = ['massnick', 'massnick-role', 'single-token', 'design-2021'];
const RATE_TARGETS = { minShareOfCeiling: 0.97, max429s: 0, max403s: 0, maxWorkerGapWindows: 2 } as const;

/** Members with a decorated name in the `sanitize` scenarios, as a share of the guild. */
const DECORATED_SHARE = 0.3;
/**
 * Every member filter a rename job takes, set so that it keeps every human: the time windows
 * reach from before the first generated account (October 2015) to long after now. `no_roles` is
 * left out: it would leave out most members.
 */
const EVERY_FILTER = {
	members: 'humans',
	joined_after: '2015-06-01',
	joined_before: '2100-01-01',
	created_after: '2015-06-01',
	created_before: '2100-01-01',
} as const;
/**
 * The name filter as a substring: no letter is in every generated member's username, display
 * name or nickname, and `a` is in the most (86% of the 20,000 humans of seed 1), so this job holds
 * 86% of the guild and skips the rest as `name-mismatch`.
 */
const SUBSTRING = 'a';
const NO_FILTER_LABEL = 'massnick (no filter)';
const restOffset20 = scaledRestOffsetMs(20);

/**
 * The scenarios, in the order a default run runs them. All at time scale 20: a 10-per-10-s
 * token allows 20 changes a second, so ten tokens' ceiling is 200 a second.
 */
export const SCENARIOS: readonly Scenario[] = [
	{ name: '20k', members: 20_000, workers: 10, timeScale: 20, warmupSeconds: 2, windowSeconds: 20, subjects: ALL, targets: RATE_TARGETS, listing: true },
	{
		name: 'sanitize',
		members: 20_000,
		workers: 10,
		timeScale: 20,
		decoratedNames: DECORATED_SHARE,
		sanitizeUntilDone: true,
		warmupSeconds: 2,
		windowSeconds: 20,
		subjects: ['massnick-sanitize', 'massnick'],
		runs: [
			{ label: 'massnick-sanitize', kind: 'massnick-sanitize', tokens: 10, restOffsetMs: restOffset20 },
			{ label: NO_FILTER_LABEL, kind: 'massnick', tokens: 10, restOffsetMs: restOffset20, nickname: 'nf {id}' },
			{
				label: 'massnick (every filter)',
				kind: 'massnick',
				tokens: 10,
				restOffsetMs: restOffset20,
				nickname: 'ef {id}',
				filters: { ...EVERY_FILTER, name_matches: SUBSTRING },
				cpuComparedWith: NO_FILTER_LABEL,
			},
			{
				label: 'massnick (every filter, /./)',
				kind: 'massnick',
				tokens: 10,
				restOffsetMs: restOffset20,
				nickname: 'er {id}',
				filters: { ...EVERY_FILTER, name_matches: '/./' },
				cpuComparedWith: NO_FILTER_LABEL,
			},
		],
		targets: { ...RATE_TARGETS, maxCpuRatio: 1.1 },
		note: `30% of the members generated with decorated names: /sanitize fallback:"Member {id}" runs to its end and the guild is checked (every decorated member below the bots' role shows its plain name, nobody else was changed); then the same rename job three times, with no filter, with every filter (${Object.entries(
			EVERY_FILTER,
		)
			.map(([key, value]) => `${key}:${value}`)
			.join(' ')} name_matches:${SUBSTRING}) and with name_matches:/./ instead, for the filters' CPU per 1,000 changes side by side`,
	},
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
		name: 'sanitize-1m',
		members: 1_000_000,
		workers: 10,
		timeScale: 20,
		decoratedNames: DECORATED_SHARE,
		warmupSeconds: 2,
		windowSeconds: 30,
		subjects: ['massnick-sanitize'],
		targets: { ...RATE_TARGETS, maxPeakRssMB: 300, maxFirstChangeMs: 2000 },
		note: "/sanitize on 1,000,000 members, 30% of them decorated, held to the 1m scenario's figures: its 300,000 changes would take 25 minutes at the ceiling, so it is stopped after the window and the check covers the members it changed by then (each shows its plain name; none needed no cleaning)",
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
	{
		name: 'realtime',
		members: 20_000,
		workers: 10,
		timeScale: 1,
		// Past the first window, which starts with the listing's first pages.
		warmupSeconds: 5,
		// Eleven or twelve windows a token: about 110 window-to-window periods a run.
		windowSeconds: 120,
		subjects: ['massnick'],
		runs: REALTIME_OFFSETS_MS.map((offset) => ({
			label: `offset ${offset} ms`,
			kind: 'massnick',
			tokens: 10,
			restOffsetMs: offset,
			nickname: `o${offset} {id}`,
		})),
		targets: { minBurstShare: 0.995, max429s: 0, max403s: 0, maxWorkerGapWindows: 2 },
		probeEventLoop: true,
		note: "Discord's real windows (time scale 1): massnick renaming as configured, once per discord.js REST offset (rest.offsetMs), one after another; the share that counts is burst to burst (a fixed window holds a whole number of 10-s bursts)",
		optIn: true,
		resultsFile: 'results-realtime.json',
		budgetSeconds: 900,
	},
	{
		name: 'tokens',
		members: 1_000_000,
		workers: Math.max(...TOKEN_COUNTS),
		// Twice Discord's pace: 100 tokens ask 200 changes a second of one process, as 10 tokens do
		// at 20x in the default scenarios, and 400 tokens 800 (the sandbox answers them on the
		// same 2 cores).
		timeScale: 2,
		warmupSeconds: 5,
		// Twelve windows of 5 s.
		windowSeconds: 60,
		subjects: ['massnick'],
		runs: [
			...TOKEN_COUNTS.map(
				(tokens): SubjectRun => ({ label: `${tokens} tokens`, kind: 'massnick', tokens, restOffsetMs: productRestOffsetMs(2), nickname: `t${tokens} {id}` }),
			),
			// The largest two again with queues three times as deep (4 x workers.maxInFlight members
			// each), side by side: whether the queues' depth still holds anything back.
			...([200, 400] as const).map(
				(tokens): SubjectRun => ({
					label: `${tokens} tokens, maxInFlight 30`,
					kind: 'massnick',
					tokens,
					restOffsetMs: productRestOffsetMs(2),
					nickname: `t${tokens}q {id}`,
					settings: { workers: { maxInFlight: 30 } },
				}),
			),
		],
		targets: { minBurstShare: 0.97, max429s: 0, max403s: 0, maxWorkerGapWindows: 2 },
		probeEventLoop: true,
		beyondOneServer: true,
		note: 'how many worker tokens one massnick process carries at full rate: 49 (the most one Discord server holds), 100, 200 and 400 workers on a 1,000,000-member guild, one after another, then 200 and 400 again with workers.maxInFlight 30 (queues three times as deep); past 49 no one server holds them',
		optIn: true,
		resultsFile: 'results-tokens.json',
		budgetSeconds: 900,
	},
];

/** `--quick`: about two minutes. */
export const QUICK_SCENARIOS = ['20k', 'sanitize'] as const;

/** What a scenario measures: its {@link Scenario.runs}, or each of its subjects once. */
export function runsOf(scenario: Scenario): SubjectRun[] {
	if (scenario.runs) return [...scenario.runs];
	const restOffsetMs = scaledRestOffsetMs(scenario.timeScale);
	return scenario.subjects.map((kind) => ({ label: kind, kind, tokens: kind === 'single-token' ? 1 : scenario.workers, restOffsetMs }));
}
