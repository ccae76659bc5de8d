import { PermissionFlagsBits, type APIRole } from 'discord.js';
import type { CommandPermission } from '../actions/index.js';
import { inviteUrl } from '../discord/inviteUrl.js';
import { LOCKDOWN_PERMISSIONS } from '../discord/requiredPermissions.js';
import { hasMembersIntent } from '../discord/membersIntent.js';
import { ErrorCodes } from '../errors.js';
import type { BotFacts } from './BotFacts.js';
import { checkLockdown, type LockdownCheck } from './checkLockdown.js';
import { checkCommands, type WorkerPermissions, workerInvitePermissions } from './checkCommands.js';
import { checkServerRoom } from './checkServerRoom.js';
import { checkStatusChannel } from './checkStatusChannel.js';
import { countServerRoom, type ServerRoom } from './countServerRoom.js';
import { countUnrenamable, type Unrenamable } from './countUnrenamable.js';
import type { Finding } from './Finding.js';
import type { GuildFacts } from './GuildFacts.js';
import { guildPermissions } from './guildPermissions.js';
import { compareRoles, highestRole } from './highestRole.js';
import { listInWords } from '../discord/permissionNames.js';

/** One bot's line in the report, as text cells (`-` where it was not reached). */
export interface BotRow {
	readonly bot: string;
	readonly application: string;
	readonly token: string;
	readonly inGuild: string;
	readonly permissions: string;
	readonly commands: string;
	readonly highestRole: string;
	readonly cannotRename: string;
	readonly membersIntent: string;
	/** Its invite link, when its application id is known. */
	readonly invite?: string;
	/** The boss's: the same link asking Manage Guild too, for `/lockdown`. */
	readonly lockdownInvite?: string;
}

export interface DiagnoseInput {
	readonly guildId: string;
	/** The live status channel to check; every text channel when absent. */
	readonly channelId?: string;
	readonly bots: readonly BotFacts[];
	/** Null when no bot could read the guild. */
	readonly guild: GuildFacts | null;
	/** Each command with the permission it needs of the workers; the report says which they hold. */
	readonly commands?: readonly CommandPermission[] | undefined;
	/** `invite.actions`: the commands whose permission the workers' invite links ask for too. */
	readonly inviteActions?: readonly string[] | undefined;
}

export interface Diagnosis {
	readonly rows: BotRow[];
	readonly findings: Finding[];
	/** The server's room for more bots and the report's lines on it; absent when no bot could read the guild. */
	readonly room?: { readonly counts: ServerRoom; readonly lines: readonly string[] };
	/** Whether the boss can run `/lockdown`; absent when the boss could not be read in the guild. */
	readonly lockdown?: LockdownCheck;
	/** Which command needs which permission of the workers, and whether they hold it (see `checkCommands`). */
	readonly commands?: readonly string[];
}

/**
 * Turns what was read into the report's rows and findings, each finding with its fix. Pure: the
 * same facts give the same diagnosis, so every rule is tested without a network.
 */
export function diagnose(input: DiagnoseInput): Diagnosis {
	const ourBots = input.bots.flatMap((bot) => (bot.memberRoles ? [bot.memberRoles] : []));
	const rows: BotRow[] = [];
	const findings: Finding[] = [];
	let lockdown: LockdownCheck | undefined;
	for (const bot of input.bots) {
		const checked = checkBot(bot, input, ourBots);
		rows.push(checked.row);
		findings.push(...checked.findings);
		lockdown ??= checked.lockdown;
	}
	findings.push(...checkWorkersReach(input, ourBots));
	let commands: string[] | undefined;
	if (input.commands) {
		const checked = checkCommands({ commands: input.commands, chosen: input.inviteActions ?? [], workers: workersIn(input) });
		commands = checked.lines;
		findings.push(...checked.findings);
	}
	const extras = { ...(lockdown ? { lockdown } : {}), ...(commands ? { commands } : {}) };
	if (!input.guild) return { rows, findings, ...extras };
	const counts = countServerRoom(input.guild, input.bots);
	const room = checkServerRoom(counts);
	findings.push(...room.findings);
	return { rows, findings, room: { counts, lines: room.lines }, ...extras };
}

/** The workers in the guild with their guild permissions, for `checkCommands`. */
function workersIn(input: DiagnoseInput): WorkerPermissions[] {
	const guild = input.guild;
	if (!guild) return [];
	return input.bots.flatMap((bot) => {
		if (bot.role !== 'worker' || !bot.memberRoles || !bot.application) return [];
		const permissions = guildPermissions(bot.memberRoles, guild.roles, guild.id, bot.application.botUserId === guild.ownerId);
		return [{ label: bot.label, permissions, roleName: highestRole(bot.memberRoles, guild.roles, guild.id)?.name ?? '@everyone' }];
	});
}

function checkBot(
	bot: BotFacts,
	input: DiagnoseInput,
	ourBots: ReadonlyArray<readonly string[]>,
): { row: BotRow; findings: Finding[]; lockdown?: LockdownCheck } {
	const findings: Finding[] = [];
	const fatal = (code: Finding['code'], message: string, fix: string, context: Record<string, unknown> = {}): void => {
		findings.push({ code, severity: 'fatal', bot: bot.label, message: `${bot.label}: ${message}`, fix, context: { bot: bot.label, ...context } });
	};
	let row: BotRow = {
		bot: bot.label,
		application: bot.application?.name ?? '-',
		token: bot.token === 'accepted' ? 'accepted' : bot.token === 'rejected' ? 'REJECTED' : '?',
		inGuild: '-',
		permissions: '-',
		commands: '-',
		highestRole: '-',
		cannotRename: '-',
		membersIntent: '-',
	};
	if (bot.token === 'rejected') {
		fatal(
			ErrorCodes.TokenRejected,
			'Discord rejected its token (401 Unauthorized).',
			`Developer Portal → its application → Bot → Reset Token, then put the new token in .env as ${bot.tokenSetting}`,
			{ setting: bot.tokenSetting },
		);
		return { row, findings };
	}
	const app = bot.application;
	if (!app) {
		fatal(ErrorCodes.CheckFailed, `could not be checked: ${bot.failure ?? 'no answer'}.`, 'check DISCORD_API_URL and the network, then run the doctor again');
		return { row, findings };
	}
	const extra = bot.role === 'worker' ? workerInvitePermissions(input.commands ?? [], input.inviteActions ?? []) : 0n;
	row = { ...row, invite: inviteUrl(app.id, bot.role, extra) };
	if (bot.role === 'boss') row = { ...row, lockdownInvite: inviteUrl(app.id, bot.role, LOCKDOWN_PERMISSIONS) };

	const intent = hasMembersIntent(app.flags);
	if (bot.role === 'boss') {
		row = { ...row, membersIntent: intent ? 'yes' : 'NO (needed)' };
		if (!intent) {
			fatal(
				ErrorCodes.MembersIntentDisabled,
				`its application (${app.name}) lacks the Server Members intent, which the boss needs to list the members and hear joins and leaves.`,
				`Developer Portal → ${app.name} → Bot → Privileged Gateway Intents: switch on Server Members Intent and save`,
				{ applicationId: app.id, flags: app.flags },
			);
		}
	} else {
		row = { ...row, membersIntent: intent ? 'yes: also lists members (faster)' : 'no: renames only' };
	}

	if (bot.memberRoles === undefined) {
		fatal(ErrorCodes.CheckFailed, `could not be checked: ${bot.failure ?? 'no answer'}.`, 'check DISCORD_API_URL and the network, then run the doctor again');
		return { row, findings };
	}
	if (bot.memberRoles === null) {
		row = { ...row, inGuild: 'NO' };
		fatal(
			ErrorCodes.NotInGuild,
			`${app.name} is not a member of guild ${input.guildId}.`,
			`open ${bot.label}'s invite link below and add it to the server (or fix GUILD_ID if that is the wrong server)`,
			{ applicationId: app.id, guildId: input.guildId },
		);
		return { row, findings };
	}
	row = { ...row, inGuild: 'yes' };

	if (bot.role === 'boss') {
		if (bot.commands === 'allowed') row = { ...row, commands: 'ok' };
		else if (bot.commands === 'missing-access') {
			row = { ...row, commands: 'NO' };
			fatal(
				ErrorCodes.CommandsNotAllowed,
				'it may not register slash commands in the guild (403 Missing Access): it was added without the applications.commands scope.',
				"open the boss's invite link below (it asks for applications.commands) and authorise it again; no need to remove the bot first",
				{ applicationId: app.id },
			);
		}
	}
	if (bot.failure)
		fatal(ErrorCodes.CheckFailed, `could not be fully checked: ${bot.failure}.`, 'check DISCORD_API_URL and the network, then run the doctor again');

	const guild = input.guild;
	if (!guild) return { row, findings };
	const permissions = guildPermissions(bot.memberRoles, guild.roles, guild.id, app.botUserId === guild.ownerId);
	const top = highestRole(bot.memberRoles, guild.roles, guild.id);
	if (top) {
		const reach = countUnrenamable(top, guild, ourBots);
		row = { ...row, highestRole: top.name, cannotRename: countInWords(reach) };
	}

	if (bot.role === 'boss') {
		const channel = checkStatusChannel(
			{ userId: app.botUserId, name: app.name, roleIds: bot.memberRoles, permissions, roleName: top?.name ?? '@everyone' },
			guild,
			input.channelId,
		);
		row = { ...row, permissions: channel.cell };
		findings.push(...channel.findings.map((finding) => ({ ...finding, message: `${bot.label}: ${finding.message}` })));
		return { row, findings, lockdown: checkLockdown(permissions, top?.name ?? '@everyone') };
	}

	if (permissions.has(PermissionFlagsBits.ManageNicknames)) row = { ...row, permissions: 'Manage Nicknames: ok' };
	else {
		row = { ...row, permissions: 'no Manage Nicknames' };
		fatal(
			ErrorCodes.MissingPermission,
			`it lacks Manage Nicknames, so it can rename nobody.`,
			`Server Settings → Roles → ${top?.name ?? '@everyone'}: allow Manage Nicknames (or re-invite ${bot.label} with its link below)`,
			{ applicationId: app.id, permission: 'ManageNicknames', role: top?.id },
		);
	}
	return { row, findings };
}

/**
 * A job renames nobody whose highest role is at or above the lowest of the workers' highest
 * roles (the planner skips them, whichever worker would have owned them): a warning with the
 * roles in the way, or fatal when nobody is left to rename.
 */
function checkWorkersReach(input: DiagnoseInput, ourBots: ReadonlyArray<readonly string[]>): Finding[] {
	const guild = input.guild;
	if (!guild) return [];
	const workerRoles: APIRole[] = [];
	for (const bot of input.bots) {
		if (bot.role !== 'worker' || !bot.memberRoles) continue;
		const top = highestRole(bot.memberRoles, guild.roles, guild.id);
		if (top) workerRoles.push(top);
	}
	const lowest = workerRoles.sort(compareRoles)[0];
	if (!lowest) return [];
	const reach = countUnrenamable(lowest, guild, ourBots);
	const others = Math.max(0, guild.memberCount - ourBots.length);
	const context = { role: lowest.id, roleName: lowest.name, atLeast: reach.atLeast, atMost: reach.atMost, members: others };
	if (lowest.id === guild.id || (reach.atLeast >= others && others > 0)) {
		return [
			{
				code: ErrorCodes.NobodyRenamable,
				severity: 'fatal',
				message: `the workers' highest role (${lowest.name}) is not above any member: a job would rename nobody.`,
				fix: `Server Settings → Roles: give the workers a role and drag it above the roles of the members to rename`,
				context,
			},
		];
	}
	if (reach.atMost === 0) return [];
	const blocking = reach.roles.filter(({ members }) => members > 0);
	const who = [...blocking.map(({ role, members }) => `${members} with ${role.name}`), ...(reach.owner ? ['the owner'] : [])];
	const top = blocking[0]?.role;
	return [
		{
			code: ErrorCodes.MembersAboveWorkers,
			severity: 'warning',
			message: `${countInWords(reach)} ${reach.atMost === 1 ? 'member ranks' : 'members rank'} at or above the workers' role ${lowest.name} (${listInWords(who)}) and will be skipped.`,
			fix: top
				? `to rename them too, drag ${lowest.name} above ${top.name} in Server Settings → Roles (nobody can rename the owner)`
				: 'nothing to do: Discord lets no bot rename the server owner',
			context,
		},
	];
}

/** `6`, or `up to 6` when a member holding two such roles may have been counted twice. */
function countInWords(reach: Unrenamable): string {
	return reach.atLeast === reach.atMost ? String(reach.atMost) : `up to ${reach.atMost}`;
}
