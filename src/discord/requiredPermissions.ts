import { OAuth2Scopes, PermissionFlagsBits } from 'discord.js';

/** The two kinds of bot massnick runs: one boss, any number of workers. */
export type BotRole = 'boss' | 'worker';

/**
 * What the boss needs in the channel where a job's live status is posted: to see the channel,
 * post the message, and show its embed. Editing its own message later needs nothing more.
 * It needs nothing at guild level: it never renames anyone.
 */
export const BOSS_CHANNEL_PERMISSIONS: bigint = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks;

/**
 * What every worker needs in the guild: Manage Nicknames, and (not a permission) a highest role
 * above every member it changes. A command that changes something else needs its own permission
 * too (Manage Roles for /massrole, Moderate Members for /masstimeout): the operator chooses those
 * (`invite.actions`), and the doctor says which command needs which.
 *
 * @see {@link https://discord.com/developers/docs/topics/permissions#permission-hierarchy}
 */
export const WORKER_PERMISSIONS: bigint = PermissionFlagsBits.ManageNicknames;

/**
 * What the boss needs for `/lockdown` alone: Manage Guild, which Discord asks of a bot to pause
 * invites and DMs (Modify Guild Incident Actions). It is left out of the boss's own invite link:
 * it also lets a bot change the server's settings, so a server that never locks down through
 * massnick is better off without it. The doctor offers a second link that asks for it.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#modify-guild-incident-actions}
 */
export const LOCKDOWN_PERMISSIONS: bigint = PermissionFlagsBits.ManageGuild;

/** The permissions each kind of bot is invited with: exactly what it needs, nothing more. */
export const REQUIRED_PERMISSIONS: Readonly<Record<BotRole, bigint>> = Object.freeze({ boss: BOSS_CHANNEL_PERMISSIONS, worker: WORKER_PERMISSIONS });

/**
 * The OAuth2 scopes each kind of bot is invited with: the boss registers slash commands in the
 * guild, which needs `applications.commands`; workers only rename.
 */
export const REQUIRED_SCOPES: Readonly<Record<BotRole, readonly OAuth2Scopes[]>> = Object.freeze({
	boss: Object.freeze([OAuth2Scopes.Bot, OAuth2Scopes.ApplicationsCommands]),
	worker: Object.freeze([OAuth2Scopes.Bot]),
});
