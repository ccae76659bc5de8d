import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MassnickJob } from './massnickJobs.js';
import { NodeChild } from './NodeChild.js';
import { CONFIG_DIR, EVENT_LOOP_PROBE, MAIN_SCRIPT } from './paths.js';
import type { SandboxProcess } from './SandboxProcess.js';
import { CHANGES, type Subject } from './Subject.js';

export interface StartMassnickOptions {
	sandbox: SandboxProcess;
	workers: number;
	/** discord.js's `rest.offset`, scaled down with the sandbox's windows. */
	offsetMs: number;
	/** The command to run once it is ready: `/massnick`, `/massrole add`. */
	job: MassnickJob;
	/** A fresh directory: the bot's working directory, config and journals. */
	workDir: string;
	logDir: string;
	/** The log file's name in `logDir`, without `.log` (default `massnick`). */
	logName?: string;
	readyTimeoutMs: number;
	/** Starts the process with eventLoopProbe.ts, writing its event-loop delay here. */
	eventLoopFile?: string;
	/** Settings that differ from the repository's `config/massnick.json` for this run (merged key by key). */
	settings?: Readonly<Record<string, unknown>>;
}

/** The line `startMassnick` logs at info once the boss answers commands. */
const READY_MESSAGE = '"msg":"massnick is ready"';

/**
 * Runs the compiled `src/main.js start` exactly as `npm start` does, against the sandbox.
 *
 * The bot reads `config/massnick.json` relative to its working directory, so it runs in
 * `workDir`, which holds a copy of the repository's settings with the REST offset scaled (and a
 * study's own settings, if any); no option of the bot is added for the benchmark. Outside the
 * repository it also reads no `.env`.
 * It logs at info: massnick logs only its start and stop at that level (nothing per change),
 * and "massnick is ready" is the moment its commands are answered. Whatever the job, the process
 * is the same: only the command sent by {@link Subject.go} differs.
 */
export async function startMassnick(options: StartMassnickOptions): Promise<Subject> {
	const { sandbox, workers, job } = options;
	const configDir = join(options.workDir, 'config');
	const dataDir = join(options.workDir, 'data');
	await mkdir(configDir, { recursive: true });
	await mkdir(dataDir, { recursive: true });
	const settings = merge(merge(await readSettings(), options.settings ?? {}), { rest: { offsetMs: options.offsetMs } });
	await writeFile(join(configDir, 'massnick.json'), `${JSON.stringify(settings, null, 2)}\n`);

	const { info } = sandbox;
	const probe = options.eventLoopFile;
	const child = new NodeChild({
		name: 'massnick',
		script: MAIN_SCRIPT,
		args: ['start'],
		nodeArgs: probe === undefined ? [] : ['--import', pathToFileURL(EVENT_LOOP_PROBE).href],
		cwd: options.workDir,
		env: {
			BOSS_TOKEN: info.bossToken,
			WORKER_TOKENS: info.workerTokens.slice(0, workers).join(','),
			GUILD_ID: info.guildId,
			DISCORD_API_URL: info.apiUrl,
			MASSNICK_DATA_DIR: dataDir,
			LOG_LEVEL: 'info',
			...(probe === undefined ? {} : { MASSNICK_BENCH_EVENT_LOOP_FILE: probe }),
		},
		logFile: join(options.logDir, `${options.logName ?? 'massnick'}.log`),
	});
	let listedBy: string[];
	try {
		const ready = await child.waitForLine((line) => line.includes(READY_MESSAGE), options.readyTimeoutMs, 'that it is ready');
		listedBy = listingOf(ready);
		// The bench runs massnick as the product recommends: the boss's app alone has the members intent.
		if (listedBy.join() !== 'the boss') throw child.failure(`lists with ${listedBy.join(', ')}, not the boss alone: a worker's members intent was left on`);
	} catch (error) {
		await child.stop();
		throw error;
	}

	let interactionId: string | undefined;
	let startId: string | undefined;
	return {
		kind: job.kind,
		pid: child.pid,
		tokens: workers,
		workerIds: sandbox.workerIds.slice(0, workers),
		change: CHANGES[job.kind],
		listedBy,
		get running() {
			return child.running;
		},
		async go() {
			const { control } = sandbox;
			const invokedAt = Date.now();
			interactionId = await control.invoke(info.guildId, info.ownerId, job.command, job.options, info.channelId);
			// A dry run starts at once; a changing job first answers with its preview, and
			// changes nobody until Start is pressed, as the member running it would.
			if (job.options.dry_run === true) return invokedAt;
			const answered = await control.waitForResponses(interactionId, 2, options.readyTimeoutMs);
			if (answered.originalMessageId === null) return invokedAt;
			const preview = await control.message(info.channelId, answered.originalMessageId);
			const start = preview.components.flatMap((row) => row.components ?? []).find((button) => button.custom_id?.endsWith(':start'));
			// A guild below preview.skipBelowMembers has no preview: the job started with the command.
			if (start?.custom_id === undefined) return invokedAt;
			const pressedAt = Date.now();
			startId = await control.pressButton(info.guildId, info.ownerId, info.channelId, preview.id, start.custom_id);
			return pressedAt;
		},
		async diagnose() {
			if (interactionId === undefined) return `/${job.command} was not invoked`;
			const interaction = await sandbox.control.interaction(interactionId);
			const started =
				startId === undefined ? 'Start was not pressed' : `Start got: ${JSON.stringify((await sandbox.control.interaction(startId)).responses).slice(0, 500)}`;
			return `/${job.command} got: ${JSON.stringify(interaction.responses).slice(0, 1000)}; ${started}`;
		},
		failure: (message) => child.failure(message),
		// massnick's own shutdown allows itself 10 s; the benchmark needs the process gone, not a
		// clean journal, and its budget cannot spare that per scenario.
		stop: () => child.stop(3000),
	};
}

/** The ready line's `listing`: who pages through the member list ("the boss", then any worker whose app has the members intent). */
function listingOf(readyLine: string): string[] {
	const { listing } = JSON.parse(readyLine) as { listing?: unknown };
	if (!Array.isArray(listing) || !listing.every((entry) => typeof entry === 'string'))
		throw new Error(`massnick's ready line names no listing: ${readyLine.slice(0, 300)}`);
	return listing;
}

/** `base` with `changes` laid over it, objects key by key (arrays and values replaced whole). */
function merge(base: Readonly<Record<string, unknown>>, changes: Readonly<Record<string, unknown>>): Record<string, unknown> {
	const merged: Record<string, unknown> = { ...base };
	for (const [key, value] of Object.entries(changes)) {
		const under = merged[key];
		merged[key] = isObject(value) && isObject(under) ? merge(under, value) : value;
	}
	return merged;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function readSettings(): Promise<Record<string, unknown>> {
	try {
		return JSON.parse(await readFile(join(CONFIG_DIR, 'massnick.json'), 'utf8')) as Record<string, unknown>;
	} catch (error) {
		// Every setting has a default, as for the bot itself.
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
		throw error;
	}
}
