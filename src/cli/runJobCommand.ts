import { Writable } from 'node:stream';
import { namedModule, readKeep } from '../actions/index.js';
import { formatWorkers } from '../present/index.js';
import { type Config, loadConfig, createRedactor, secretsOf } from '../config/index.js';
import { JobError, MassnickError } from '../errors.js';
import { type Job, type KeepOptions, listedIdsLine, type MassAction, type MemberFilters } from '../jobs/index.js';
import { createLogger } from '../log/createLogger.js';
import { startMassnick } from '../startMassnick.js';
import type { RunningMassnick } from './RunningMassnick.js';
import { cliRequester } from './cliRequester.js';
import { LogProgress, progressFields } from './LogProgress.js';
import { argsOfRequest, cliOptionName, parseRunArgs, RUN_USAGE } from './parseRunArgs.js';
import { readRunFilters } from './readRunFilters.js';
import type { ProgressView } from './ProgressView.js';
import { runLockdown } from './runLockdown.js';
import { RunLock } from './RunLock.js';
import { runReadiness, serveRunHealth } from './runHealth.js';
import { type RunExitCode, RunExitCodes, runOutcome, startFailureExitCode } from './runOutcome.js';
import { startRequestedJob } from './startRequestedJob.js';
import { TerminalProgress } from './TerminalProgress.js';
import { wordError } from './wordError.js';

/** After the first signal, the longest the cancel may take before the process exits anyway. */
const CANCEL_DEADLINE_MS = 15_000;

/**
 * `massnick run <job>`: one job from a terminal or a scheduler, on the same stack as `start`
 * (the boss connects too: it lists members and carries joins and leaves), then a clean stop. A
 * process holding only some of the workers (`WORKER_IDS`, `JOB_COMPLETION_INDEX`) runs its
 * workers' part of the job without the boss.
 *
 * stderr is for people: the job, a progress bar when it is a terminal, what happened and what
 * to do. stdout is the log (JSON unless a terminal), with a progress line every
 * `--progress-every` seconds and one at the end with the counts and the exit code.
 *
 * The first SIGINT or SIGTERM cancels the job like /cancel and exits once its journal is closed;
 * a second exits at once. With `MASSNICK_METRICS_PORT` it serves `/healthz`, `/readyz` and
 * `/metrics` as `massnick start` does, ready while its job runs (see `runReadiness`).
 *
 * @returns the exit code (see {@link RunExitCodes}).
 */
export async function runJobCommand(args: readonly string[]): Promise<RunExitCode> {
	const parsed = parseRunArgs(args);
	if (parsed.kind === 'help') {
		process.stdout.write(`${RUN_USAGE}\n`);
		return RunExitCodes.Done;
	}
	if (parsed.kind === 'invalid') {
		process.stderr.write(`massnick run: ${parsed.problem}\n\n${RUN_USAGE}\n`);
		return RunExitCodes.BadArguments;
	}
	// Not a job: one request with the boss's token, without the bots' gateways or the run lock.
	if (parsed.kind === 'lockdown') return runLockdown(parsed.request);
	const { request } = parsed;

	let config: Config;
	try {
		config = loadConfig();
	} catch (error) {
		// A ConfigError names each key and never shows a secret.
		process.stderr.write(`${(error as Error).message}\n`);
		return RunExitCodes.Refused;
	}
	const redact = createRedactor(secretsOf(config));
	const bar = process.stderr.isTTY ? new TerminalProgress(process.stderr) : undefined;
	const say = (line: string): void => {
		const text = `${redact(line)}\n`;
		if (bar) bar.writeAbove(process.stderr, text);
		else process.stderr.write(text);
	};

	// What can be checked without Discord (a template) is checked before anything connects: a bad
	// one is a bad argument.
	let fallback: MassAction | undefined;
	let filters: MemberFilters | undefined;
	let keep: KeepOptions | undefined;
	const settings = { nicknameMaxLength: config.nickname.maxLength };
	try {
		if (request.kind === 'restore') {
			if (request.name !== undefined) fallback = nameChecked(() => namedModule().byName.clear(request.name!, settings));
		} else {
			nameChecked(() => request.module.check?.(argsOfRequest(request), settings));
			filters = await readRunFilters(request);
			keep = readKeep(argsOfRequest(request), { now: Date.now(), optionName: cliOptionName });
			// A rule keeps its durations as typed, to read them anew (the filters' mistakes are named first).
			if (keep) filters = await readRunFilters(request, { rule: true });
		}
	} catch (error) {
		if (!(error instanceof MassnickError)) throw error;
		process.stderr.write(`massnick run: ${error.message}\n\n${RUN_USAGE}\n`);
		return RunExitCodes.BadArguments;
	}

	// A rule follows joins through the boss's gateway: a process without the boss would sweep once and then see no one.
	if (keep && !runPlan(config).withBoss) {
		process.stderr.write(`massnick run: ${noBossForRule(config)}\n`);
		return RunExitCodes.Refused;
	}

	// On a terminal the bar shows the progress: the log keeps to warnings unless LOG_LEVEL asks
	// for more, and its lines go above the bar rather than through it.
	const stdoutIsTerminal = process.stdout.isTTY === true;
	const logger = createLogger({
		level: stdoutIsTerminal && config.logLevel === 'info' ? 'warn' : config.logLevel,
		format: config.logFormat,
		secrets: secretsOf(config),
		destination: bar && stdoutIsTerminal ? aboveBar(bar) : 1,
	});
	// On a terminal, stderr already says everything this component logs.
	const log = logger.child({ component: 'run' }, stdoutIsTerminal ? { level: 'silent' } : {});

	// A dry run sends nothing and journals nothing: it may count beside a running job.
	let lock: RunLock | undefined;
	if (!request.dryRun) {
		try {
			// Keyed by the workers held: a fleet's processes sharing a data folder run side by side.
			const workers = { count: config.workerCount, ids: config.heldWorkers.map((worker) => worker.id) };
			lock = await RunLock.take(config.dataDir, config.guildId, { what: commandLine(args), workers });
		} catch (error) {
			if (!(error instanceof MassnickError)) throw error;
			say(`${error.message} Nothing ran; run it again later.`);
			log.warn({ code: error.code, reason: error.message }, 'not started: another run holds the lock');
			return RunExitCodes.RetryLater;
		}
	}

	let signal: NodeJS.Signals | undefined;
	let job: Job | undefined;
	let health: Awaited<ReturnType<typeof serveRunHealth>>;
	// A start waiting out Discord (5xx, time-outs) stops on the first signal.
	const starting = new AbortController();
	const onSignal = (received: NodeJS.Signals): void => {
		if (signal) {
			say(`${received} again: exiting now, without waiting for the journal's end line; running the same command again finishes the job.`);
			process.exit(RunExitCodes.Cancelled);
		}
		signal = received;
		starting.abort();
		health?.stopping();
		say(`${received}: cancelling; no new request goes out and what was done stays journaled (${received} again exits at once).`);
		log.warn({ signal: received }, 'cancelling the job');
		job?.cancel();
		setTimeout(() => {
			say(`Cancelling took longer than ${CANCEL_DEADLINE_MS / 1000} s; exiting. Running the same command again finishes the job.`);
			process.exit(RunExitCodes.Cancelled);
		}, CANCEL_DEADLINE_MS).unref();
	};
	process.on('SIGINT', onSignal);
	process.on('SIGTERM', onSignal);

	try {
		try {
			health = await serveRunHealth(config, logger);
		} catch (error) {
			// The port in use, or not the machine's: named by its key, before anything connects.
			if (!(error instanceof MassnickError)) throw error;
			say(error.message);
			return RunExitCodes.Refused;
		}
		const { withBoss, startConfig } = runPlan(config);
		const workers = formatWorkers(
			config.heldWorkers.map((worker) => worker.id),
			config.workerCount,
		);
		if (bar) say(withBoss ? `Connecting the boss and ${workers}…` : `Connecting ${workers}, without the boss (this process holds only some of the workers)…`);
		let massnick: RunningMassnick;
		try {
			massnick = await startMassnick(startConfig, logger, { boss: withBoss, signal: starting.signal, observeJobs: health?.metrics.watchJob });
		} catch (error) {
			if (signal) {
				say(`Cancelled by ${signal} while connecting: nothing changed.`);
				return RunExitCodes.Cancelled;
			}
			const exitCode = startFailureExitCode(error);
			say(`Could not start: ${(error as Error).message}${exitCode === RunExitCodes.RetryLater ? ' Nothing ran; run it again later.' : ''}`);
			log.error({ err: error, exitCode }, 'could not start');
			return exitCode;
		}
		health?.serving(
			massnick,
			runReadiness(massnick, () => job, config.guildId, withBoss ? 'the boss' : 'the worker holding the guild'),
		);
		const views: ProgressView[] = [];
		try {
			if (signal) {
				say(`Cancelled by ${signal} before the job started: nothing changed.`);
				return RunExitCodes.Cancelled;
			}
			try {
				const started = await startRequestedJob({ massnick, request, fallback, filters, startedBy: cliRequester() });
				job = started.job;
				for (const line of started.headline) say(line);
			} catch (error) {
				if (!(error instanceof MassnickError)) throw error;
				say(wordError(error));
				log.warn({ code: error.code, reason: error.message }, 'refused');
				return RunExitCodes.Refused;
			}
			if (signal) job.cancel();
			if (bar) views.push(bar);
			if (!stdoutIsTerminal) views.push(new LogProgress(log, request.progressEveryMs));
			for (const view of views) view.start(job);
			await job.ended();
		} finally {
			for (const view of views) view.stop();
			// Marks the journal and closes it, then logs the bots out.
			await massnick.stop();
		}
	} finally {
		process.off('SIGINT', onSignal);
		process.off('SIGTERM', onSignal);
		// The server would keep the process alive.
		await health?.close();
		await lock?.release();
	}

	const snapshot = job.progress.snapshot();
	const listedIds = listedIdsLine(job);
	const outcome = runOutcome({ title: job.title, mode: job.mode, dryRun: job.dryRun, result: job.result!, snapshot, signal, listedIds });
	log.info({ job: job.id, state: job.result!.state, exitCode: outcome.exitCode, undone: outcome.undone, ...progressFields(snapshot) }, 'run ended');
	for (const line of outcome.lines) say(line);
	return outcome.exitCode;
}

/**
 * Whether the run starts the boss, and the configuration it starts with. Only a process holding
 * every worker starts the boss: one holding some of them is one of several processes (hosts, or
 * a Kubernetes Indexed Job's pods), and a boss in each would register and answer the guild's
 * slash commands once per process. Without the boss, a process that has `BOSS_TOKEN` but no
 * `LISTER_TOKEN` lists with the boss's token over REST alone, as `LISTER_TOKEN` would.
 */
function runPlan(config: Config): { withBoss: boolean; startConfig: Config } {
	const withBoss = config.bossToken !== '' && config.heldWorkers.length === config.workerCount;
	if (withBoss || config.bossToken === '' || config.listerToken !== '') return { withBoss, startConfig: config };
	return { withBoss, startConfig: Object.freeze({ ...config, listerToken: config.bossToken }) };
}

/** Why a process without the boss cannot keep a rule, and what to do. */
function noBossForRule(config: Config): string {
	const why = config.bossToken === '' ? 'BOSS_TOKEN is not set here' : 'this process holds only some of the workers, so it starts no boss';
	return `--keep makes a standing rule, which follows joins through the boss's gateway (its Server Members intent), and ${why}. Run it where BOSS_TOKEN is set and every worker is held, or make the rule with the slash command's keep:true; without --keep the job sweeps once. Nothing ran.`;
}

/** A log destination on the bar's terminal that writes each line above the bar. */
function aboveBar(bar: TerminalProgress): NodeJS.WritableStream {
	const stream = new Writable({
		write(chunk: Buffer | string, _encoding, callback) {
			bar.writeAbove(process.stdout, chunk.toString());
			callback();
		},
	});
	// createLogger colours and pretty-prints for a terminal.
	return Object.assign(stream, { isTTY: true });
}

/** The command as typed, for the lock's holder: `massnick run massnick --name "🎃 {display_name}"`. */
function commandLine(args: readonly string[]): string {
	return ['massnick', 'run', ...args].map((arg) => (/^[\w@:./=-]+$/.test(arg) ? arg : JSON.stringify(arg))).join(' ');
}

/** A template's error, named by its flag as the command line gave it. */
function nameChecked<T>(check: () => T): T {
	try {
		return check();
	} catch (error) {
		if (!(error instanceof MassnickError)) throw error;
		throw new JobError(error.code, `--name: ${error.message}`, { cause: error });
	}
}
