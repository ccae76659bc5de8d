import { parseArgs } from 'node:util';
import { JOIN_BURST_BUDGET_SECONDS, JOIN_BURST_RESULTS_FILE, JOIN_BURST_SCENARIO, type JoinBurstScenario } from './joinburst/JoinBurstScenario.js';
import { benchResultsFile } from './paths.js';
import { SHARED_CAP_BUDGET_SECONDS, SHARED_CAP_RESULTS_FILE, SHARED_CAP_SCENARIO, type SharedCapScenario } from './sharedcap/SharedCapScenario.js';
import { RAID_BUDGET_SECONDS, RAID_RESULTS_FILE, RAID_SCENARIO, type RaidScenario } from './raid/RaidScenario.js';
import { QUICK_SCENARIOS, type Scenario, SCENARIOS } from './scenarios.js';
import { SUBJECT_KINDS, type SubjectKind } from './Subject.js';

export const BENCH_USAGE = `usage: npm run bench -- [--quick | --scenario NAME] [options]

  (no flag)          every scenario: ${SCENARIOS.filter((scenario) => !scenario.optIn)
		.map((scenario) => scenario.name)
		.join(', ')} (about 10 minutes, at most 13); opt-in, only
                     when named: ${[...SCENARIOS.filter((scenario) => scenario.optIn).map((scenario) => scenario.name), RAID_SCENARIO.name, JOIN_BURST_SCENARIO.name, SHARED_CAP_SCENARIO.name].join(', ')}
  --quick            the ${QUICK_SCENARIOS.join(' and ')} scenarios only (about 4 minutes, at most 5½)
  --scenario NAME    one scenario (repeatable); ${RAID_SCENARIO.name} (issue #25's raid cleanup, about 9 minutes) and
                     ${JOIN_BURST_SCENARIO.name} (issue #26's standing rule through a join burst, about 6 minutes) and
                     ${SHARED_CAP_SCENARIO.name} (issue #27's guild-wide write cap, paced and as before, about 5 minutes) run alone
  --members N        override the member count (for trying things out; ${RAID_SCENARIO.name}: the guild's, raid included;
                     ${JOIN_BURST_SCENARIO.name}: the members before the burst, the burst a twentieth of them at most)
  --window SECONDS   override the measured window (${RAID_SCENARIO.name}: how long each baseline runs, default ${RAID_SCENARIO.baselineSeconds})
  --subjects LIST    comma-separated, of ${SUBJECT_KINDS.join(', ')}, and listing (the boss
                     listing the guild alone, a dry run; by default in the 20k, 100k and 1m scenarios)
  --out FILE         where to write the results (default: bench/results.json for a full or
                     --quick run; ${SCENARIOS.filter((scenario) => scenario.resultsFile)
												.map((scenario) => `bench/${scenario.resultsFile} for --scenario ${scenario.name} alone`)
												.join(', ')},
                     bench/${RAID_RESULTS_FILE} for --scenario ${RAID_SCENARIO.name},
                     bench/${JOIN_BURST_RESULTS_FILE} for --scenario ${JOIN_BURST_SCENARIO.name},
                     bench/${SHARED_CAP_RESULTS_FILE} for --scenario ${SHARED_CAP_SCENARIO.name};
                     bench/results.local.json otherwise)`;

/** What a default and a `--quick` run promise to finish in, in seconds; a custom run gets at least the default's. */
const DEFAULT_BUDGET_SECONDS = 780;
const QUICK_BUDGET_SECONDS = 330;

/** The name `--subjects` takes for the boss's listing-only measurement. */
const LISTING = 'listing';

export interface BenchArgs {
	mode: 'default' | 'quick' | 'custom';
	scenarios: Scenario[];
	/** `--scenario raid`: issue #25's raid cleanup, run alone (no other scenario is then in {@link scenarios}). */
	raid: RaidScenario | null;
	/** `--scenario join-burst`: issue #26's standing rule through a join burst, run alone (no other scenario is then in {@link scenarios}). */
	joinBurst: JoinBurstScenario | null;
	/** `--scenario shared-cap`: issue #27's guild-wide write cap, run alone (no other scenario is then in {@link scenarios}). */
	sharedCap?: SharedCapScenario | null | undefined;
	/** The time the mode promises to finish in; later subjects are skipped past it. */
	budgetSeconds: number;
	out: string | undefined;
	help: boolean;
}

/** Reads `npm run bench`'s flags; throws a message meant for the user on a bad one. */
export function parseBenchArgs(args: readonly string[]): BenchArgs {
	const { values } = parseArgs({
		args: [...args],
		options: {
			quick: { type: 'boolean', default: false },
			scenario: { type: 'string', multiple: true },
			members: { type: 'string' },
			window: { type: 'string' },
			subjects: { type: 'string' },
			out: { type: 'string' },
			help: { type: 'boolean', short: 'h', default: false },
		},
		strict: true,
		allowPositionals: false,
	});
	if (values.quick && values.scenario) throw new Error('give --quick or --scenario, not both');
	if (values.scenario?.includes(RAID_SCENARIO.name)) return parseRaidArgs(values);
	if (values.scenario?.includes(JOIN_BURST_SCENARIO.name)) return parseJoinBurstArgs(values);
	if (values.scenario?.includes(SHARED_CAP_SCENARIO.name)) return parseSharedCapArgs(values);
	const names: readonly string[] =
		values.scenario ?? (values.quick ? QUICK_SCENARIOS : SCENARIOS.filter((scenario) => !scenario.optIn).map((scenario) => scenario.name));
	let scenarios = names.map((name) => {
		const found = SCENARIOS.find((scenario) => scenario.name === name);
		if (!found) throw new Error(`unknown scenario ${name}; known: ${SCENARIOS.map((scenario) => scenario.name).join(', ')}`);
		return { ...found };
	});

	const custom = values.scenario !== undefined || values.members !== undefined || values.window !== undefined || values.subjects !== undefined;
	if (values.members !== undefined) {
		const members = positiveInteger('--members', values.members);
		scenarios = scenarios.map((scenario) => ({ ...scenario, members, name: `${scenario.name}@${members}` }));
	}
	if (values.window !== undefined) {
		const windowSeconds = positiveInteger('--window', values.window);
		scenarios = scenarios.map((scenario) => ({ ...scenario, windowSeconds }));
	}
	if (values.subjects !== undefined) {
		const names = values.subjects.split(',').map((name) => name.trim());
		for (const name of names) {
			if (name !== LISTING && !(SUBJECT_KINDS as readonly string[]).includes(name))
				throw new Error(`unknown subject ${name}; known: ${SUBJECT_KINDS.join(', ')}, ${LISTING}`);
		}
		const subjects = names.filter((name) => name !== LISTING) as SubjectKind[];
		// An explicit choice runs even what a scenario leaves out by default, each subject once.
		scenarios = scenarios.map((scenario) => ({ ...scenario, subjects, runs: undefined, listing: names.includes(LISTING) }));
	}
	const mode = custom ? 'custom' : values.quick ? 'quick' : 'default';
	// A study named alone, as it is, writes the results file it is committed in.
	const overridden = values.members !== undefined || values.window !== undefined || values.subjects !== undefined;
	const own = scenarios.length === 1 && !overridden ? scenarios[0]!.resultsFile : undefined;
	const out = values.out ?? (own === undefined ? undefined : benchResultsFile(own));
	const budgetSeconds = values.quick
		? QUICK_BUDGET_SECONDS
		: Math.max(
				DEFAULT_BUDGET_SECONDS,
				scenarios.reduce((sum, scenario) => sum + (scenario.budgetSeconds ?? 0), 0),
			);
	return { mode, scenarios, raid: null, joinBurst: null, budgetSeconds, out, help: values.help };
}

/**
 * `--scenario raid`, alone: its steps, table and results file are its own. `--members` sizes the
 * guild (the raid stays 10,000, or a tenth of a guild under 100,000, with a tenth of the raid as
 * real joiners); `--window` is how long each baseline runs.
 */
function parseRaidArgs(values: { scenario?: string[]; members?: string; window?: string; subjects?: string; out?: string; help: boolean }): BenchArgs {
	if (values.scenario!.length > 1) throw new Error(`--scenario ${RAID_SCENARIO.name} runs alone: give it without other scenarios`);
	if (values.subjects !== undefined)
		throw new Error(`--subjects does not apply to --scenario ${RAID_SCENARIO.name}: it always runs massnick and both baselines`);
	let raid: RaidScenario = RAID_SCENARIO;
	if (values.members !== undefined) {
		const members = positiveInteger('--members', values.members);
		if (members < 1000)
			throw new Error(`--members must be at least 1000 for --scenario ${RAID_SCENARIO.name} (the raid is a tenth of the guild at most), got ${members}`);
		const raidAccounts = Math.min(RAID_SCENARIO.raidAccounts, Math.floor(members / 10));
		const realJoiners = Math.min(RAID_SCENARIO.realJoiners, Math.floor(raidAccounts / 10));
		raid = { ...raid, name: `${raid.name}@${members}`, members, raidAccounts, realJoiners };
	}
	if (values.window !== undefined) raid = { ...raid, baselineSeconds: positiveInteger('--window', values.window) };
	const overridden = values.members !== undefined || values.window !== undefined;
	// Six baseline steps: each second more of them is six more of the run.
	const budgetSeconds = RAID_BUDGET_SECONDS + 6 * Math.max(0, raid.baselineSeconds - RAID_SCENARIO.baselineSeconds);
	return {
		mode: 'custom',
		scenarios: [],
		raid,
		joinBurst: null,
		budgetSeconds,
		out: values.out ?? (overridden ? undefined : benchResultsFile(RAID_RESULTS_FILE)),
		help: values.help,
	};
}

/**
 * `--scenario join-burst`, alone: its subjects, table and results file are its own. `--members`
 * sizes the guild before the burst (the burst stays 5,000, or a twentieth of a guild under
 * 100,000); it always runs massnick with 10 workers and with one token.
 */
function parseJoinBurstArgs(values: { scenario?: string[]; members?: string; window?: string; subjects?: string; out?: string; help: boolean }): BenchArgs {
	const name = JOIN_BURST_SCENARIO.name;
	if (values.scenario!.length > 1) throw new Error(`--scenario ${name} runs alone: give it without other scenarios`);
	if (values.subjects !== undefined)
		throw new Error(`--subjects does not apply to --scenario ${name}: it always runs massnick with 10 workers and with one token`);
	if (values.window !== undefined) throw new Error(`--window does not apply to --scenario ${name}: each subject runs until every joiner is timed out`);
	let joinBurst: JoinBurstScenario = JOIN_BURST_SCENARIO;
	if (values.members !== undefined) {
		const members = positiveInteger('--members', values.members);
		if (members < 1000)
			throw new Error(`--members must be at least 1000 for --scenario ${name} (the burst is a twentieth of the guild at most), got ${members}`);
		joinBurst = { ...joinBurst, name: `${name}@${members}`, members, joiners: Math.min(JOIN_BURST_SCENARIO.joiners, Math.floor(members / 20)) };
	}
	return {
		mode: 'custom',
		scenarios: [],
		raid: null,
		joinBurst,
		budgetSeconds: JOIN_BURST_BUDGET_SECONDS,
		out: values.out ?? (values.members === undefined ? benchResultsFile(JOIN_BURST_RESULTS_FILE) : undefined),
		help: values.help,
	};
}

/**
 * `--scenario shared-cap`, alone: its runs, table and results file are its own. `--members` sizes
 * each run's guild; every run renames it whole.
 */
function parseSharedCapArgs(values: { scenario?: string[]; members?: string; window?: string; subjects?: string; out?: string; help: boolean }): BenchArgs {
	const name = SHARED_CAP_SCENARIO.name;
	if (values.scenario!.length > 1) throw new Error(`--scenario ${name} runs alone: give it without other scenarios`);
	if (values.subjects !== undefined) throw new Error(`--subjects does not apply to --scenario ${name}: it always runs massnick paced and as before`);
	if (values.window !== undefined) throw new Error(`--window does not apply to --scenario ${name}: each run renames every member`);
	let sharedCap: SharedCapScenario = SHARED_CAP_SCENARIO;
	if (values.members !== undefined) {
		const members = positiveInteger('--members', values.members);
		sharedCap = { ...sharedCap, name: `${name}@${members}`, members };
	}
	return {
		mode: 'custom',
		scenarios: [],
		raid: null,
		joinBurst: null,
		sharedCap,
		budgetSeconds: SHARED_CAP_BUDGET_SECONDS,
		out: values.out ?? (values.members === undefined ? benchResultsFile(SHARED_CAP_RESULTS_FILE) : undefined),
		help: values.help,
	};
}

function positiveInteger(flag: string, text: string): number {
	const value = Number(text);
	if (!Number.isInteger(value) || value <= 0) throw new Error(`${flag} must be a positive whole number, got ${text}`);
	return value;
}
