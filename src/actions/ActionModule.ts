import type { RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import type { MemberRecord } from '../discord/MemberRecord.js';
import type { GuildContext, GuildCounts, JobEstimate, JournalHeader, MassAction, MemberFilters, Range, SlotValue } from '../jobs/index.js';

/**
 * What a job was asked with, by option name, whether it came from a slash command or from
 * `massnick run`'s flags (`exclude_role` is `--exclude-role`): one module reads both the same way.
 */
export interface ActionArgs {
	/** The subcommand: `add` of `/massrole add`; on the command line, the word after the job. */
	readonly subcommand: string | undefined;
	string(name: string): string | undefined;
	/** A role option: the role's id. */
	role(name: string): string | undefined;
	boolean(name: string): boolean;
}

/** A role as Discord describes it, from the boss's cache: what the checks of a role job need. */
export interface GuildRole {
	readonly id: string;
	readonly name: string;
	readonly position: number;
	/** Bot, booster and integration roles: nobody can hand them out. */
	readonly managed: boolean;
}

/** The settings an action may read without Discord. */
export interface ActionSettings {
	/** `nickname.maxLength` from the settings. */
	readonly nicknameMaxLength: number;
}

/** What building an action may use of the running bot. */
export interface ActionDeps extends ActionSettings {
	/** A role of the guild by id; `undefined` when it is not there (deleted, or never was). */
	role(id: string): GuildRole | undefined;
	/** The guild as the planner sees it now: roles, owner, bots, the workers' reach. */
	guildContext(): GuildContext;
}

/** An action a command asked for, ready to preview and run. */
export interface RequestedAction {
	readonly action: MassAction;
	/** The figures its preview shows, from Discord's counts, for the job's filters. */
	estimate(counts: GuildCounts, ctx: GuildContext, filters: MemberFilters): JobEstimate;
}

/**
 * One mass action as the boss and the command line see it: its slash command, how a command's
 * options become the action, how a journal rebuilds it for `/restore`, and how a planned change
 * reads in a preview. The boss and `massnick run` iterate the list of modules (`index.ts`) and
 * never name one, the way discord.js's client loops over its event handlers: adding an action is
 * one folder and one line in that list.
 *
 * The engine's filters (role, kind of member, dates, name pattern) and `dry_run` are added to the
 * command by the boss and read by the engine; a module declares only its own options.
 */
export interface ActionModule {
	/**
	 * The slash command, with the action's own options (or subcommands, each with its own): also
	 * `massnick run <name> [<subcommand>] --<option> …`, the flags named after the options.
	 */
	readonly command: RESTPostAPIChatInputApplicationCommandsJSONBody;
	/**
	 * The name of the option that keeps a job to one role's members: `only_role` unless the
	 * command has always called it otherwise (`role` of `/massnick`).
	 */
	readonly onlyRoleOption?: string | undefined;
	/** The types its actions write in journals (see `MassAction.type`): how a restore finds it. */
	readonly journalTypes: readonly string[];
	/** `massnick run`'s usage lines for it, options included. */
	readonly usage: string;
	/**
	 * The action a command asked for, checked before anything runs.
	 *
	 * @throws {JobError} with what to change, for input that can never work.
	 */
	request(args: ActionArgs, deps: ActionDeps): RequestedAction;
	/**
	 * Checks what can be checked without Discord (a template's syntax and length), so `massnick
	 * run` answers a bad argument before it connects. {@link request} checks it again.
	 *
	 * @throws {JobError}
	 */
	check?(args: ActionArgs, settings: ActionSettings): void;
	/** The action that wrote a journal with one of {@link journalTypes}, for its restore. */
	fromJournal(header: JournalHeader, deps: ActionDeps): MassAction;
	/**
	 * The action of an interrupted job, to run again after a restart, checked as a new job's
	 * would be against the guild as it is now (a role deleted or moved above the workers since).
	 * Default: {@link fromJournal}.
	 *
	 * @throws {JobError} with what changed.
	 */
	resume?(header: JournalHeader, deps: ActionDeps): MassAction;
	/**
	 * Whether a job that changes `members` asks for that number to be typed before it runs, the
	 * way a repository's name is typed before it is deleted: for what cannot be undone (a kick, of
	 * any size) or is large enough to hurt (a ban of more than 100). Asked first of the preview's
	 * estimate (a range from Discord's counts): when it says yes, the preview counts the members
	 * exactly, asks again with that count (`exactly(n)`), and when the answer is still yes, Start
	 * opens a modal that takes that number, and `massnick run` takes it as `--confirm-count`.
	 * Absent: Start starts.
	 */
	confirmByTypedCount?(members: Range): boolean;
	/**
	 * Why {@link confirmByTypedCount} asks for the count, in words, for an action whose
	 * `MassAction.irreversible` does not say it already (a ban can be undone, it is asked for its
	 * size): `A ban of more than 100 members is confirmed by its count (/restore unbans them)`. The
	 * preview, the modal and `massnick run`'s refusal say it where they ask for the number.
	 */
	readonly typedCountWhy?: string | undefined;
	/** One sample line of a preview: `@alice: “Alice” → “🎃 Alice”`, `@bob gets @Event`. */
	describeChange(member: MemberRecord, from: SlotValue, to: SlotValue, roleName: (id: string) => string): string;
	/**
	 * For the commands that take a nickname as text (`/stats name:`, `/restore name:`): the action
	 * that counts members with it, and the one that clears it. One module offers it.
	 */
	readonly byName?: {
		count(text: string, settings: ActionSettings): MassAction;
		clear(text: string, settings: ActionSettings): MassAction;
	};
}
