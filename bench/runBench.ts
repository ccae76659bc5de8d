import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { buildResultsFile, currentLoadAverage } from './buildResultsFile.js';
import { formatReport } from './formatReport.js';
import { NodeChild } from './NodeChild.js';
import { BENCH_USAGE, type BenchArgs, parseBenchArgs } from './parseBenchArgs.js';
import { LOCAL_RESULTS_FILE, RESULTS_FILE } from './paths.js';
import { runScenario, type ScenarioResult } from './runScenario.js';

/**
 * `npm run bench`: issue #5's benchmark. For each scenario, a sandbox in its own process, then
 * massnick renaming, massnick giving a role, and the two renaming baselines (a single-token loop,
 * the 2021 design) in turn, each in its own process, measured from outside: each one's changes
 * (renames, roles given) from the sandbox's request log, memory and CPU from `/proc`; then,
 * where the scenario asks, the boss listing the guild alone (issue #8). Prints a table on stdout
 * (progress goes to stderr) and writes the results file.
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
	const deadline = startedAt.getTime() + parsed.budgetSeconds * 1000;
	const workDir = await mkdtemp(join(tmpdir(), 'massnick-bench-'));
	const progress = (line: string): void => {
		const seconds = ((Date.now() - startedAt.getTime()) / 1000).toFixed(0).padStart(4);
		process.stderr.write(`[${seconds} s] ${line}\n`);
	};
	// Children must not outlive the harness, however it ends.
	const interrupt = (signal: NodeJS.Signals): void => {
		progress(`${signal}: stopping every child process; logs kept in ${workDir}`);
		NodeChild.killAll();
		process.exit(130);
	};
	process.on('SIGINT', interrupt);
	process.on('SIGTERM', interrupt);
	process.on('exit', NodeChild.killAll);

	const results: ScenarioResult[] = [];
	let failed = false;
	try {
		progress(`${parsed.mode} run: ${parsed.scenarios.map((scenario) => scenario.name).join(', ')}; logs in ${workDir}`);
		for (const scenario of parsed.scenarios) {
			try {
				const result = await runScenario(scenario, { workDir, deadline, progress });
				results.push(result);
				if (result.subjects.some((subject) => subject.status === 'failed') || result.listing?.status === 'failed') failed = true;
			} catch (error) {
				progress(`${scenario.name} failed: ${(error as Error).message}`);
				failed = true;
			}
		}
	} finally {
		NodeChild.killAll();
		process.off('SIGINT', interrupt);
		process.off('SIGTERM', interrupt);
	}

	const durationSeconds = (Date.now() - startedAt.getTime()) / 1000;
	process.stdout.write(formatReport(results));
	process.stdout.write(`\nFinished in ${durationSeconds.toFixed(0)} s (budget ${parsed.budgetSeconds} s).\n`);
	const out = parsed.out ?? (parsed.mode === 'custom' ? LOCAL_RESULTS_FILE : RESULTS_FILE);
	await writeFile(
		out,
		buildResultsFile({ mode: parsed.mode, args, startedAt, durationSeconds, budgetSeconds: parsed.budgetSeconds, loadAverageAtStart }, results),
	);
	process.stdout.write(`Results written to ${relative(process.cwd(), out) || out}.\n`);
	// Keep the logs of a failed run for a look; a clean run leaves nothing behind.
	if (failed) process.stderr.write(`Logs kept in ${workDir}\n`);
	else await rm(workDir, { recursive: true, force: true });
	return failed ? 1 : 0;
}
