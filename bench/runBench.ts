import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { buildResultsFile, currentLoadAverage, type RunInfo } from './buildResultsFile.js';
import { formatReport } from './formatReport.js';
import { buildJoinBurstResultsFile } from './joinburst/buildJoinBurstResultsFile.js';
import { formatJoinBurstReport } from './joinburst/formatJoinBurstReport.js';
import type { JoinBurstScenario } from './joinburst/JoinBurstScenario.js';
import { runJoinBurst } from './joinburst/runJoinBurst.js';
import { NodeChild } from './NodeChild.js';
import { BENCH_USAGE, type BenchArgs, parseBenchArgs } from './parseBenchArgs.js';
import { LOCAL_RESULTS_FILE, RESULTS_FILE } from './paths.js';
import { buildRaidResultsFile } from './raid/buildRaidResultsFile.js';
import { formatRaidReport } from './raid/formatRaidReport.js';
import type { RaidScenario } from './raid/RaidScenario.js';
import { runRaid } from './raid/runRaid.js';
import { runScenario, type ScenarioResult } from './runScenario.js';
import { buildSharedCapResultsFile, formatSharedCapReport } from './sharedcap/formatSharedCapReport.js';
import { runSharedCap } from './sharedcap/runSharedCap.js';
import type { SharedCapScenario } from './sharedcap/SharedCapScenario.js';
import { scaledRestOffsetMs } from './SubjectRun.js';

/** What a run measured, ready to print and to write. */
interface Measured {
	failed: boolean;
	report: string;
	resultsFile: (run: RunInfo) => string;
}

interface RunContext {
	workDir: string;
	/** Unix ms past which no more is started. */
	deadline: number;
	progress: (line: string) => void;
}

/**
 * `npm run bench`: issue #5's benchmark. For each scenario, a sandbox in its own process, then
 * massnick renaming, massnick giving a role, and the two renaming baselines (a single-token loop,
 * the 2021 design) in turn, each in its own process, measured from outside: each one's changes
 * (renames, roles given) from the sandbox's request log, memory and CPU from `/proc`; then,
 * where the scenario asks, the boss listing the guild alone (issue #8). `--scenario raid` runs
 * issue #25's raid cleanup instead (bench/raid/runRaid.ts), `--scenario join-burst` issue #26's
 * standing rule through a join burst (bench/joinburst/runJoinBurst.ts), `--scenario shared-cap`
 * issue #27's guild-wide write cap (bench/sharedcap/runSharedCap.ts). Prints a table on stdout (progress
 * goes to stderr) and writes the results file.
 *
 * @returns the exit code: 0 when every subject was measured (targets missed are reported, not
 * failed), 1 when a subject or a listing failed, 2 on bad arguments.
 */
export async function runBench(args: string[]): Promise<number> {
	let parsed: BenchArgs;
	try {
		parsed = parseBenchArgs(args);
	} catch (error) {
		console.error(`${(error as Error).message}\n\n${BENCH_USAGE}`);
		return 2;
	}
	if (parsed.help) {
		console.log(BENCH_USAGE);
		return 0;
	}

	const startedAt = new Date();
	const loadAverageAtStart = currentLoadAverage();
	const workDir = await mkdtemp(join(tmpdir(), 'massnick-bench-'));
	const progress = (line: string): void => {
		const seconds = ((Date.now() - startedAt.getTime()) / 1000).toFixed(0).padStart(4);
		process.stderr.write(`[${seconds} s] ${line}\n`);
	};
	const context: RunContext = { workDir, deadline: startedAt.getTime() + parsed.budgetSeconds * 1000, progress };
	// Children must not outlive the harness, however it ends.
	const interrupt = (signal: NodeJS.Signals): void => {
		progress(`${signal}: stopping every child process; logs kept in ${workDir}`);
		NodeChild.killAll();
		process.exit(130);
	};
	process.on('SIGINT', interrupt);
	process.on('SIGTERM', interrupt);
	process.on('exit', NodeChild.killAll);

	let measured: Measured;
	try {
		measured = parsed.raid
			? await measureRaid(parsed.raid, context)
			: parsed.joinBurst
				? await measureJoinBurst(parsed.joinBurst, context)
				: parsed.sharedCap
					? await measureSharedCap(parsed.sharedCap, context)
					: await measureScenarios(parsed, context);
	} finally {
		NodeChild.killAll();
		process.off('SIGINT', interrupt);
		process.off('SIGTERM', interrupt);
	}

	const durationSeconds = (Date.now() - startedAt.getTime()) / 1000;
	process.stdout.write(measured.report);
	process.stdout.write(`\nFinished in ${durationSeconds.toFixed(0)} s (budget ${parsed.budgetSeconds} s).\n`);
	const out = parsed.out ?? (parsed.mode === 'custom' ? LOCAL_RESULTS_FILE : RESULTS_FILE);
	await writeFile(out, measured.resultsFile({ mode: parsed.mode, args, startedAt, durationSeconds, budgetSeconds: parsed.budgetSeconds, loadAverageAtStart }));
	process.stdout.write(`Results written to ${relative(process.cwd(), out) || out}.\n`);
	// Keep the logs of a failed run for a look; a clean run leaves nothing behind.
	if (measured.failed) process.stderr.write(`Logs kept in ${workDir}\n`);
	else await rm(workDir, { recursive: true, force: true });
	return measured.failed ? 1 : 0;
}

/** The renaming scenarios, one after another. */
async function measureScenarios(parsed: BenchArgs, context: RunContext): Promise<Measured> {
	const results: ScenarioResult[] = [];
	let failed = false;
	context.progress(`${parsed.mode} run: ${parsed.scenarios.map((scenario) => scenario.name).join(', ')}; logs in ${context.workDir}`);
	for (const scenario of parsed.scenarios) {
		try {
			const result = await runScenario(scenario, context);
			results.push(result);
			if (result.subjects.some((subject) => subject.status === 'failed') || result.listing?.status === 'failed') failed = true;
		} catch (error) {
			context.progress(`${scenario.name} failed: ${(error as Error).message}`);
			failed = true;
		}
	}
	return { failed, report: formatReport(results), resultsFile: (run) => buildResultsFile(run, results) };
}

/** Issue #25's raid cleanup: massnick and the two one-token baselines, each step on fresh guilds. */
async function measureRaid(scenario: RaidScenario, context: RunContext): Promise<Measured> {
	context.progress(
		`${scenario.name} run: ${scenario.raidAccounts.toLocaleString('en')} raid accounts among ${scenario.members.toLocaleString('en')} members; logs in ${context.workDir}`,
	);
	const results = await runRaid(scenario, context);
	return {
		failed: results.some((result) => result.status === 'failed'),
		report: formatRaidReport(scenario, results),
		resultsFile: (run) => buildRaidResultsFile({ ...run, restOffsetMs: scaledRestOffsetMs(scenario.timeScale) }, scenario, results),
	};
}

/** Issue #26's join burst: a standing /masstimeout followed by massnick with 10 workers and with one token, each on a fresh guild. */
async function measureJoinBurst(scenario: JoinBurstScenario, context: RunContext): Promise<Measured> {
	context.progress(
		`${scenario.name} run: ${scenario.joiners.toLocaleString('en')} joiners over ${scenario.burstSeconds} s among ${scenario.members.toLocaleString('en')} members, time scale ${scenario.timeScale}; logs in ${context.workDir}`,
	);
	const results = await runJoinBurst(scenario, context);
	return {
		failed: results.some((result) => result.status === 'failed'),
		report: formatJoinBurstReport(scenario, results),
		resultsFile: (run) => buildJoinBurstResultsFile({ ...run, restOffsetMs: scaledRestOffsetMs(scenario.timeScale) }, scenario, results),
	};
}

/** Issue #27's guild-wide write cap: each level, paced and as before, each run on a fresh guild. */
async function measureSharedCap(scenario: SharedCapScenario, context: RunContext): Promise<Measured> {
	context.progress(
		`${scenario.name} run: ${scenario.members.toLocaleString('en')} members, ${scenario.workers} workers, caps ${scenario.levels.map((level) => level.limit).join(', ')} per ${scenario.windowMs / 1000} s; logs in ${context.workDir}`,
	);
	const runs = await runSharedCap(scenario, context);
	return {
		failed: runs.some((run) => run.status === 'failed'),
		report: formatSharedCapReport(scenario, runs),
		resultsFile: (run) => buildSharedCapResultsFile({ ...run, restOffsetMs: scaledRestOffsetMs(scenario.timeScale) }, scenario, runs),
	};
}
