import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { type ControlInteraction, type ControlMessage, SandboxControl, type SandboxOptions, startSandbox } from '@massnick/discord-sandbox';
import type { Config } from '../../src/config/Config.js';
import { loadConfig } from '../../src/config/loadConfig.js';
import { secretsOf } from '../../src/config/redactTokens.js';
import type { Job } from '../../src/jobs/Job.js';
import { createLogger } from '../../src/log/createLogger.js';
import { type Massnick, type StartMassnickOptions, startMassnick } from '../../src/startMassnick.js';
import { commandAnswer } from './commandAnswer.js';
import { startFromPreview } from './startFromPreview.js';
import { waitUntil } from './waitUntil.js';

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

export interface Stack {
	sandbox: Sandbox;
	control: SandboxControl;
	massnick: Massnick;
	config: Config;
	dataDir: string;
	/** Everything the bot logged, as text (tokens must never appear in it). */
	logs: () => string;
	/**
	 * Runs a slash command as `userId` (the owner by default) and waits for the job it starts to end.
	 * A command that shows a preview (a kick or a ban is previewed in a server of any size) is
	 * started from it as its member would: Start, and the count it shows typed when it asks for one.
	 */
	runJob(command: string, options?: Record<string, unknown>, userId?: string): Promise<Job>;
	/** Runs a changing command as `userId` (the owner by default) and waits for its preview, with its buttons. */
	preview(command: string, options?: Record<string, unknown>, userId?: string): Promise<ShownPreview>;
	/** Presses a button as `userId` (the owner by default) and waits for the boss's first answer. */
	press(messageId: string, customId: string, userId?: string): Promise<ControlInteraction>;
	close(): Promise<void>;
}

/** A preview as its member sees it: the ephemeral reply, and the custom_ids of its buttons. */
export interface ShownPreview {
	interactionId: string;
	message: ControlMessage;
	start: string;
	cancel: string;
}

export interface StackOptions {
	members?: number;
	workers?: number;
	timeScale?: number;
	seed?: number;
	/** Give the worker applications the Server Members intent too (by default only the boss has it). */
	workerMembersIntent?: boolean;
	dataDir?: string;
	/** Override settings after loading (e.g. the status refresh). */
	settings?: (config: Config) => Config;
	/** Told of every job before it runs, as `massnick start` tells the metrics. */
	observeJobs?: StartMassnickOptions['observeJobs'];
	/** The sandbox's rate limits, where a test needs its own (the non-member ban limit). */
	rateLimits?: SandboxOptions['rateLimits'];
}

/** The sandbox and a real massnick on it, as a user would run them, over HTTP and WebSocket. */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
	const sandbox = await startSandbox({
		members: options.members ?? 300,
		workers: options.workers ?? 4,
		seed: options.seed ?? 7,
		timeScale: options.timeScale ?? 100,
		workerMembersIntent: options.workerMembersIntent ?? false,
		...(options.rateLimits ? { rateLimits: options.rateLimits } : {}),
	});
	const ownDataDir = options.dataDir === undefined;
	const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'massnick-test-')));
	try {
		const stack = await startMassnickOn(sandbox, dataDir, sandbox.workerTokens, options.settings, { observeJobs: options.observeJobs });
		return {
			...stack,
			async close() {
				await stack.close();
				await sandbox.close();
				if (ownDataDir) await rm(dataDir, { recursive: true, force: true });
			},
		};
	} catch (error) {
		await sandbox.close();
		throw error;
	}
}

/** A massnick on a sandbox that is already running; `close` stops the bot only. */
export async function startMassnickOn(
	sandbox: Sandbox,
	dataDir: string,
	workerTokens: readonly string[],
	settings?: (config: Config) => Config,
	start: Pick<StartMassnickOptions, 'observeJobs'> = {},
): Promise<Stack> {
	const loaded = loadConfig({
		env: {
			BOSS_TOKEN: sandbox.bossToken,
			WORKER_TOKENS: workerTokens.join(','),
			GUILD_ID: sandbox.guildId,
			DISCORD_API_URL: sandbox.apiUrl,
			MASSNICK_DATA_DIR: dataDir,
			LOG_LEVEL: 'debug',
		},
		dotenvPath: false,
	});
	// Jobs start at once, as they did before previews, whatever the guild's size: a test of the
	// preview sets `preview.skipBelowMembers` to 0 in `settings`.
	const base: Config = {
		...loaded,
		rest: { ...loaded.rest, offsetMs: 2 },
		statusRefreshSeconds: 2,
		preview: { ...loaded.preview, skipBelowMembers: 100_000_000 },
	};
	const config = settings ? settings(base) : base;
	let text = '';
	const destination = new Writable({
		write(chunk: Buffer, _encoding, callback) {
			text += chunk.toString();
			callback();
		},
	});
	const logger = createLogger({ level: 'debug', secrets: secretsOf(config), destination });
	const massnick = await startMassnick(config, logger, start);
	const control = new SandboxControl(sandbox.controlUrl);
	return {
		sandbox,
		control,
		massnick,
		config,
		dataDir,
		logs: () => text,
		async runJob(command, commandOptions = {}, userId = sandbox.ownerId) {
			const previous = massnick.jobs.last;
			const id = await control.invoke(sandbox.guildId, userId, command, commandOptions, sandbox.channelId);
			// An exact count of a large guild may take a while before the preview shows.
			const answer = await commandAnswer(control, id, 120_000);
			if (answer.buttons.some((customId) => customId.endsWith(':start'))) await startFromPreview(control, sandbox, userId, answer);
			try {
				await waitUntil(() => massnick.jobs.last !== previous && massnick.jobs.last !== undefined, { what: `the job /${command} starts` });
			} catch {
				throw new Error(`/${command} started no job: ${JSON.stringify(await control.interaction(id))}`);
			}
			const job = massnick.jobs.last!;
			// The manager clears its slot just after the job ends.
			await waitUntil(() => job.result !== undefined && massnick.jobs.current === undefined, { what: `/${command} to end`, timeoutMs: 120_000 });
			return job;
		},
		async preview(command, commandOptions = {}, userId = sandbox.ownerId) {
			const id = await control.invoke(sandbox.guildId, userId, command, commandOptions, sandbox.channelId);
			// The deferral, then the preview filled in.
			const interaction = await control.waitForResponses(id, 2);
			const message = await control.message(sandbox.channelId, interaction.originalMessageId!);
			const ids = message.components.flatMap((row) => row.components ?? []).map((button) => button.custom_id ?? '');
			const start = ids.find((customId) => customId.endsWith(':start'));
			const cancel = ids.find((customId) => customId.endsWith(':cancel'));
			if (!start || !cancel) throw new Error(`/${command} showed no preview: ${JSON.stringify(interaction.responses)}`);
			return { interactionId: id, message, start, cancel };
		},
		async press(messageId, customId, userId = sandbox.ownerId) {
			const id = await control.pressButton(sandbox.guildId, userId, sandbox.channelId, messageId, customId);
			return control.waitForResponses(id, 1);
		},
		async close() {
			await massnick.stop();
		},
	};
}
