import { once } from 'node:events';
import {
	type ButtonInteraction,
	type ChatInputCommandInteraction,
	type Client,
	DiscordjsErrorCodes,
	Events,
	GatewayIntentBits,
	GatewayDispatchEvents,
	type GatewayGuildMemberAddDispatchData,
	type GatewayGuildMemberRemoveDispatchData,
	type GatewayGuildMemberUpdateDispatchData,
	type Guild,
	MessageFlags,
	type ModalSubmitInteraction,
} from 'discord.js';
import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import { classifyError } from '../discord/classifyError.js';
import { connectPatiently } from '../discord/connectPatiently.js';
import { createClient } from '../discord/createClient.js';
import { StartAborted, waitOutTransient } from '../discord/waitOutTransient.js';
import { administratorRoleIds } from '../discord/administratorRoleIds.js';
import { ErrorCodes, JobError, MassnickError } from '../errors.js';
import { toMemberRecord } from '../discord/toMemberRecord.js';
import type { GuildContext, Job } from '../jobs/index.js';
import type { BossContext, BossHandle } from './BossContext.js';
import { bossGuildContext, type WorkerSight } from './bossGuildContext.js';
import { bossCommands, commandDefinitions } from './commands/bossCommands.js';
import { commandRefusal } from './commandRefusal.js';
import { handleComponent } from './componentHandlers.js';
import { FleetTallies } from './fleet/FleetTallies.js';
import { JobNotes } from './JobNotes.js';
import type { LiveStatus } from './status/LiveStatus.js';
import { PreviewBoard } from './preview/PreviewBoard.js';
import type { FleetFields } from './resume/logUnresumed.js';
import { type DecideResume, resumeAfterRestart } from './resume/resumeAfterRestart.js';
import { recheckRules } from './rules/recheckRules.js';
import { RequesterWatch } from './rules/RequesterWatch.js';
import { WorkersElsewhere } from './fleet/WorkersElsewhere.js';
import { wordError } from './wordError.js';

/**
 * The boss bot: registers the slash commands in the guild, checks who may use them, and turns
 * them into jobs, a changing one through a preview and its Start button (buttons are routed by
 * their custom_id's prefix, see `componentHandlers.ts`). It also carries member joins and leaves
 * to the running job (it is the one client with the Server Members intent, so the workers need
 * not each parse every member event), and re-checks the standing rules' requesters while the
 * rules run (see `RequesterWatch`).
 *
 * A boss holding none or only some of the workers (`WORKER_IDS`) reads the bots of the others at
 * start, with their tokens when `WORKER_TOKENS` lists every worker's, and keeps their roles
 * current from member events (see `WorkersElsewhere`): its counts and previews then leave every
 * worker bot alone and rank members against every worker's role, wherever the worker runs.
 */
export class Boss implements BossHandle {
	readonly client: Client;
	#live: LiveStatus | undefined;
	#context: BossContext | undefined;
	/** The workers other processes hold (none when the boss holds every worker). */
	#elsewhere = WorkersElsewhere.none();
	/** Stops a standing rule whose requester may no longer have it go on, while it runs (see `RequesterWatch`). */
	#requesters: RequesterWatch | undefined;

	constructor(
		readonly config: Config,
		readonly logger: Logger,
	) {
		this.client = createClient({
			intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers],
			apiUrl: config.apiUrl,
			restOffsetMs: config.rest.offsetMs,
			restTimeoutMs: config.rest.timeoutMs,
			restRetries: 3,
		});
	}

	get guild(): Guild {
		const guild = this.client.guilds.cache.get(this.config.guildId);
		if (!guild) throw new JobError(ErrorCodes.NotInGuild, `The boss bot is not in guild ${this.config.guildId}.`);
		return guild;
	}

	/** The live status message of the running job, if one is posted. */
	get liveStatus(): LiveStatus | undefined {
		return this.#live;
	}

	/**
	 * A new live status takes the old one's place, which stops editing; but a standing rule's
	 * message goes on beside the next job's (it follows the rule to its end), unless it is
	 * replaced by another of the same rule.
	 */
	set liveStatus(live: LiveStatus | undefined) {
		const old = this.#live;
		if (old !== live && !(old?.job.keep && !old.job.result && old.job !== live?.job)) old?.stop();
		this.#live = live;
	}

	/**
	 * Logs in, checks the guild, and registers the commands there (guild commands update at once).
	 * 5xx answers, time-outs and dropped connections are waited out with the changes' backoff, each
	 * wait logged, until they pass or `signal` aborts.
	 */
	async start(signal?: AbortSignal): Promise<void> {
		const wait = { logger: this.logger, retry: this.config.workers.retry, signal };
		const ready = once(this.client, Events.ClientReady);
		try {
			await connectPatiently(this.client, this.config.bossToken, { ...wait, what: 'the boss logging in' });
		} catch (error) {
			if (error instanceof StartAborted) throw error;
			const code = (error as { code?: unknown }).code;
			if (code === DiscordjsErrorCodes.TokenInvalid || classifyError(error).kind === 'revoked') {
				throw new JobError(ErrorCodes.TokenRejected, "The boss's token (BOSS_TOKEN) was rejected by Discord: check it in .env.");
			}
			if (code === DiscordjsErrorCodes.DisallowedIntents) {
				throw new JobError(
					ErrorCodes.MembersIntentDisabled,
					'The boss bot may not use the Server Members intent: switch it on in the Discord developer portal (Bot → Privileged Gateway Intents).',
				);
			}
			throw new JobError(ErrorCodes.ConnectFailed, `The boss could not connect to Discord: ${(error as Error).message}`);
		}
		await ready;
		const guild = this.client.guilds.cache.get(this.config.guildId);
		if (!guild) {
			throw new JobError(
				ErrorCodes.NotInGuild,
				`The boss bot is not a member of guild ${this.config.guildId}: check GUILD_ID, or invite the boss bot to that server.`,
			);
		}
		await waitOutTransient(() => guild.commands.set([...commandDefinitions]), { ...wait, what: 'the boss registering its commands' });
		this.#elsewhere = await WorkersElsewhere.read(this.config, this.client.rest, this.logger, signal);
		this.logger.info({ guild: guild.name, commands: commandDefinitions.length }, 'boss ready, commands registered');
	}

	/**
	 * Workers other processes hold whose bot the boss does not know (`WORKER_TOKENS` does not list
	 * their tokens here, or a token was rejected): counts and previews cannot leave those bots out,
	 * nor rank members against their role.
	 */
	get unknownWorkers(): readonly number[] {
		return this.#elsewhere.unknown;
	}

	/** Wires the command and button handlers and member events to the jobs; call once after start. */
	attach(context: Omit<BossContext, 'boss' | 'previews' | 'fleetTallies' | 'notes'>): void {
		const previews = new PreviewBoard({ timeoutMs: this.config.preview.timeoutSeconds * 1000 });
		const { dataDir, guildId } = this.config;
		const notes = new JobNotes({ dataDir, guildId, logger: context.logger, oldNotes: context.jobs.records });
		this.#context = { ...context, boss: this, previews, fleetTallies: new FleetTallies(), notes };
		const rulesLog = context.logger.child({ component: 'rules' });
		this.#requesters = new RequesterWatch({
			client: this.client,
			guildId,
			rules: () => context.jobs.rules.all,
			recheck: () => recheckRules(this.#context!, rulesLog),
			failed: (error) => rulesLog.error({ err: error }, "could not re-check the standing rules' requesters"),
		});
		this.client.on(Events.InteractionCreate, (interaction) => {
			if (interaction.guildId !== this.config.guildId) return;
			if (interaction.isChatInputCommand()) void this.#handle(interaction);
			else if (interaction.isButton() || interaction.isModalSubmit()) void this.#press(interaction);
		});
		// Raw dispatches: the member cache is off, and discord.js drops a leave of an uncached
		// member unless partials are on; the JSON is all a job needs anyway.
		this.client.on(Events.Raw, (packet: { t?: string; d?: unknown }) => {
			if (packet.t === GatewayDispatchEvents.GuildMemberAdd) {
				const data = packet.d as GatewayGuildMemberAddDispatchData;
				if (data.guild_id !== this.config.guildId) return;
				this.#elsewhere.memberIs(data.user.id, data.roles);
				context.jobs.rules.memberJoined(toMemberRecord(data));
			} else if (packet.t === GatewayDispatchEvents.GuildMemberRemove) {
				const data = packet.d as GatewayGuildMemberRemoveDispatchData;
				if (data.guild_id !== this.config.guildId) return;
				this.#elsewhere.memberIs(data.user.id, null);
				context.jobs.rules.memberLeft(data.user.id);
			} else if (packet.t === GatewayDispatchEvents.GuildMemberUpdate) {
				// A worker bot of another process given or losing a role moves how far the workers reach;
				// a standing rule may plan a member who renamed themself again.
				const data = packet.d as GatewayGuildMemberUpdateDispatchData;
				if (data.guild_id !== this.config.guildId) return;
				this.#elsewhere.memberIs(data.user.id, data.roles);
				context.jobs.rules.memberChanged(toMemberRecord(data));
			}
		});
	}

	/**
	 * The guild as the planner sees it now: roles, owner, our bots, the workers' highest role (the
	 * workers of this process from their own gateways, the others' from their bots' roles).
	 */
	guildContext(): GuildContext {
		const guild = this.guild;
		const here = (this.#context?.fleet.workers ?? []).map(
			(worker): WorkerSight => ({
				userId: worker.client.user?.id,
				position: worker.state === 'ready' || worker.state === 'reconnecting' ? worker.highestRolePosition : undefined,
			}),
		);
		return bossGuildContext({
			guildId: guild.id,
			ownerId: guild.ownerId,
			rolePositions: new Map(guild.roles.cache.map((role) => [role.id, role.position])),
			administratorRoleIds: administratorRoleIds(guild.roles.cache.values()),
			bossUserId: this.client.user!.id,
			workers: [...here, ...this.#elsewhere.sights()],
			unknown: this.#elsewhere.unknown.length,
		});
	}

	/**
	 * The roles of our bots in the guild (`@everyone` left out): the boss, each worker of this
	 * process, and each worker bot of another process the boss knows (one that left the guild has none).
	 */
	ourBotRoles(): string[][] {
		const guild = this.guild;
		const members = [guild.members.me, ...(this.#context?.fleet.workers ?? []).map((worker) => worker.client.guilds.cache.get(guild.id)?.members.me)];
		const here = members.map((member) => (member ? [...member.roles.cache.keys()].filter((id) => id !== guild.id) : []));
		return [...here, ...this.#elsewhere.roles()];
	}

	/**
	 * Resumes what a restart cut short, as `decide` says once the boss has read the guild (see
	 * `resumeAfterRestart`), and says so in its channel. Call after {@link attach}.
	 *
	 * @returns the resumed job or restore, or `undefined` when nothing was resumed.
	 */
	resume(decide: DecideResume, log: Logger, fleet: FleetFields): Promise<Job | undefined> {
		return resumeAfterRestart(this.#context!, decide, log, fleet);
	}

	/** Drops what the boss kept of jobs whose journals were deleted. */
	forget(jobIds: readonly string[]): Promise<void> {
		return this.#context?.notes.forget(jobIds) ?? Promise.resolve();
	}

	async stop(): Promise<void> {
		this.#live?.stop();
		await this.#requesters?.stop();
		// An open preview says nothing ran, while the boss can still edit it.
		await this.#context?.previews.stop();
		await this.client.destroy();
	}

	async #handle(interaction: ChatInputCommandInteraction): Promise<void> {
		const context = this.#context!;
		const log = this.logger.child({ command: interaction.commandName, user: interaction.user.id });
		try {
			// Who may run a command is its definition's, or, for those every job shares, anyone who may run a job.
			const refusal = commandRefusal(interaction, this.config.permissions);
			if (refusal !== undefined) {
				log.warn('refused: not allowed');
				await interaction.reply({ content: refusal, flags: MessageFlags.Ephemeral });
				return;
			}
			const command = bossCommands.find((candidate) => candidate.data.name === interaction.commandName);
			if (!command) {
				await interaction.reply({ content: `Unknown command /${interaction.commandName}.`, flags: MessageFlags.Ephemeral });
				return;
			}
			await command.run(interaction, context);
		} catch (error) {
			const expected = error instanceof MassnickError;
			if (!expected) log.error({ err: error }, 'command failed');
			const content = expected ? wordError(error as MassnickError) : 'Something went wrong running that command; the bot log has the details.';
			try {
				if (interaction.deferred || interaction.replied) await interaction.editReply({ content, embeds: [], components: [] });
				else await interaction.reply({ content, flags: MessageFlags.Ephemeral });
			} catch (replyError) {
				log.warn({ err: replyError }, 'could not report the error to the user');
			}
		}
	}

	/** A button pressed, or a modal submitted (the typed count of a preview's Start). */
	async #press(interaction: ButtonInteraction | ModalSubmitInteraction): Promise<void> {
		const log = this.logger.child({ button: interaction.customId, user: interaction.user.id });
		try {
			if (await handleComponent(interaction, this.#context!)) return;
			await interaction.reply({ content: 'This button is from an older massnick and does nothing now.', flags: MessageFlags.Ephemeral });
		} catch (error) {
			const expected = error instanceof MassnickError;
			if (!expected) log.error({ err: error }, 'button failed');
			const content = expected ? wordError(error as MassnickError) : 'Something went wrong with that button; the bot log has the details.';
			try {
				if (interaction.deferred || interaction.replied) await interaction.followUp({ content, flags: MessageFlags.Ephemeral });
				else await interaction.reply({ content, flags: MessageFlags.Ephemeral });
			} catch (replyError) {
				log.warn({ err: replyError }, 'could not report the error to the user');
			}
		}
	}
}
