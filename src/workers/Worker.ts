import { once } from 'node:events';
import { type Client, DiscordjsErrorCodes, Events, GatewayIntentBits, type Guild, Status } from 'discord.js';
import type { Logger } from 'pino';
import { classifyError } from '../discord/classifyError.js';
import { connectPatiently } from '../discord/connectPatiently.js';
import { createClient, type ClientOptions } from '../discord/createClient.js';
import { hasMembersIntent } from '../discord/membersIntent.js';
import type { RetryPolicy } from '../discord/retryTransient.js';
import type { SharedWritePacer, WriteAdmission } from '../discord/SharedWritePacer.js';
import { StartAborted, waitOutTransient } from '../discord/waitOutTransient.js';
import { ErrorCodes, JobError } from '../errors.js';

/** What a worker is doing, as `/shards` shows it. */
export type WorkerState = 'offline' | 'connecting' | 'ready' | 'reconnecting' | 'revoked' | 'stopped';

export interface WorkerOptions {
	/** The worker's place: it owns the members with `(id >> 22) % count === index`. */
	index: number;
	token: string;
	guildId: string;
	client: Omit<ClientOptions, 'intents'>;
	logger: Logger;
	/** The backoff a start waits out Discord with (`workers.retry`, the changes' own). */
	startRetry: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>;
	/** The process's pace under a guild-wide write cap, shared by its workers; none paces nothing. */
	pacer?: SharedWritePacer | undefined;
}

/**
 * One worker bot: its own token, so its own rate limits, and its own gateway connection.
 *
 * A worker connects with the Guilds intent only: it needs the guild's roles for the hierarchy
 * check and its own member, nothing else. Changes go through REST (the job's action sends them
 * with `client.rest`), and member joins and leaves reach it through the fleet, so ten workers
 * do not each parse every GUILD_MEMBER_UPDATE that ten workers cause.
 */
export class Worker {
	readonly index: number;
	readonly label: string;
	readonly client: Client;
	/** What the worker's changes wait on under a guild-wide write cap (the process's, shared by its workers). */
	readonly writes: WriteAdmission | undefined;
	readonly #token: string;
	readonly #guildId: string;
	readonly #logger: Logger;
	readonly #startRetry: WorkerOptions['startRetry'];
	#state: WorkerState = 'offline';
	#listsMembers = false;

	constructor(options: WorkerOptions) {
		this.index = options.index;
		this.label = `worker ${options.index}`;
		this.#token = options.token;
		this.#guildId = options.guildId;
		this.#logger = options.logger;
		this.#startRetry = options.startRetry;
		const { pacer } = options;
		this.writes = pacer?.admission();
		this.client = createClient({
			...options.client,
			intents: [GatewayIntentBits.Guilds],
			beforeRequest: pacer && ((method, signal) => pacer.beforeWrite(method, signal)),
		});
		pacer?.watch(this.client.rest);
		this.client.on(Events.ShardDisconnect, (event) => {
			if (this.#state !== 'stopped' && this.#state !== 'revoked') this.#state = 'reconnecting';
			this.#logger.warn({ code: event.code }, 'gateway connection closed');
		});
		this.client.on(Events.ShardReconnecting, () => {
			if (this.#state === 'ready') this.#state = 'reconnecting';
		});
		this.client.on(Events.ShardResume, () => {
			if (this.#state === 'reconnecting') this.#state = 'ready';
		});
		this.client.on(Events.ShardReady, () => {
			if (this.#state === 'reconnecting') this.#state = 'ready';
		});
	}

	get state(): WorkerState {
		return this.#state;
	}

	/**
	 * Whether this worker's application has the Server Members intent, so it may help list the
	 * guild (read from `GET /applications/@me` at start). Workers never need it to make changes.
	 */
	get listsMembers(): boolean {
		return this.#listsMembers;
	}

	/** Gateway heartbeat round trip in ms, or -1 before the first one. */
	get ping(): number {
		return this.client.ws.status === Status.Ready ? this.client.ws.ping : -1;
	}

	get guild(): Guild {
		const guild = this.client.guilds.cache.get(this.#guildId);
		if (!guild) throw new JobError(ErrorCodes.NotInGuild, `${this.label} is not in guild ${this.#guildId}.`);
		return guild;
	}

	/** The position of this worker's highest role: it can edit only members and roles strictly below it. */
	get highestRolePosition(): number {
		return this.guild.members.me?.roles.highest.position ?? 0;
	}

	/** Whether this worker's bot has `permission` in the guild (an action's, checked before a job). */
	hasPermission(permission: bigint): boolean {
		return this.guild.members.me?.permissions.has(permission) ?? false;
	}

	/**
	 * Logs in and waits for the guild. What the bot may do there is each action's to check, when a
	 * job starts. Every failure names the worker by its place, never by its token. 5xx answers,
	 * time-outs and dropped connections are waited out, each wait logged, until they pass or
	 * `signal` aborts (SIGINT or SIGTERM during the start).
	 */
	async start(signal?: AbortSignal): Promise<void> {
		this.#state = 'connecting';
		const ready = once(this.client, Events.ClientReady);
		try {
			await connectPatiently(this.client, this.#token, { what: `${this.label} logging in`, logger: this.#logger, retry: this.#startRetry, signal });
		} catch (error) {
			this.#state = 'stopped';
			throw error instanceof StartAborted ? error : this.#loginError(error);
		}
		await ready;
		const guild = this.client.guilds.cache.get(this.#guildId);
		if (!guild) {
			this.#state = 'stopped';
			throw new JobError(
				ErrorCodes.NotInGuild,
				`${this.label}'s bot is not a member of guild ${this.#guildId}: check GUILD_ID, or invite that bot with the link npm run doctor prints.`,
			);
		}
		this.#listsMembers = await this.#readMembersIntent(signal);
		this.#state = 'ready';
		this.#logger.info({ highestRole: guild.members.me?.roles.highest.name, listsMembers: this.#listsMembers }, 'worker ready');
	}

	/** Discord rejected the token mid-run: stop for good and say which worker it was. */
	markRevoked(): void {
		if (this.#state === 'revoked') return;
		this.#state = 'revoked';
		this.#logger.error(
			`${this.label}'s token was rejected by Discord; it stopped. Remove it from WORKER_TOKENS (or replace it) and run the job again: the other workers take over its members.`,
		);
		this.client.destroy().catch((error: unknown) => this.#logger.warn({ err: error }, 'could not close the client'));
	}

	async stop(): Promise<void> {
		if (this.#state !== 'revoked') this.#state = 'stopped';
		await this.client.destroy();
	}

	/**
	 * Whether its application may list members. A passing failure is waited out (the worker would
	 * otherwise not help list for the whole run); a worker that cannot read its flags for another
	 * reason still makes changes, it just does not help list.
	 */
	async #readMembersIntent(signal: AbortSignal | undefined): Promise<boolean> {
		try {
			const application = await waitOutTransient(() => this.client.application!.fetch(), {
				what: `${this.label} reading its application`,
				logger: this.#logger,
				retry: this.#startRetry,
				signal,
			});
			return hasMembersIntent(application.flags.bitfield);
		} catch (error) {
			if (error instanceof StartAborted) throw error;
			this.#logger.warn({ err: error }, 'could not read the application flags; this worker will not help list members');
			return false;
		}
	}

	#loginError(error: unknown): Error {
		const code = (error as { code?: unknown }).code;
		if (code === DiscordjsErrorCodes.TokenInvalid || classifyError(error).kind === 'revoked') {
			return new JobError(ErrorCodes.TokenRejected, `${this.label}'s token was rejected by Discord: check its place in WORKER_TOKENS.`);
		}
		if (code === DiscordjsErrorCodes.DisallowedIntents) {
			return new JobError(ErrorCodes.MembersIntentDisabled, `${this.label}'s bot may not use the intents it asked for.`);
		}
		return new JobError(ErrorCodes.ConnectFailed, `${this.label} could not connect to Discord: ${(error as Error).message}`);
	}
}
