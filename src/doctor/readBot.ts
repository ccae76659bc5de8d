import { RESTJSONErrorCodes, Routes, type REST, type RESTGetAPIGuildMemberResult, type RESTGetCurrentApplicationResult } from 'discord.js';
import type { BotRole } from '../discord/requiredPermissions.js';
import type { BotFacts } from './BotFacts.js';
import { describeFailure, hasCode, hasStatus } from './describeFailure.js';

export interface ReadBotOptions {
	/** A REST client holding this bot's token. */
	rest: REST;
	role: BotRole;
	label: string;
	tokenSetting: string;
	guildId: string;
}

/**
 * Reads what one bot's own token can tell: whether Discord accepts the token, the application
 * behind it (name, intent flags), the bot's roles in the guild, and for the boss whether it may
 * use the guild commands route. Read-only: it changes nothing on Discord. Stops at the first
 * answer that makes the next question meaningless (a rejected token, a bot outside the guild).
 */
export async function readBot({ rest, role, label, tokenSetting, guildId }: ReadBotOptions): Promise<BotFacts> {
	const base = { label, role, tokenSetting } as const;
	let application: NonNullable<BotFacts['application']>;
	try {
		const app = (await rest.get(Routes.currentApplication())) as RESTGetCurrentApplicationResult;
		application = { id: app.id, name: app.name, flags: app.flags ?? 0, botUserId: app.bot?.id ?? app.id };
	} catch (error) {
		if (hasStatus(error, 401)) return { ...base, token: 'rejected' };
		return { ...base, token: 'unknown', failure: describeFailure(error) };
	}
	const accepted = { ...base, token: 'accepted', application } as const;

	let memberRoles: readonly string[] | null;
	try {
		const member = (await rest.get(Routes.guildMember(guildId, application.botUserId))) as RESTGetAPIGuildMemberResult;
		memberRoles = member.roles;
	} catch (error) {
		// A bot outside the guild hears "Unknown Guild" or "Missing Access", as for a wrong GUILD_ID.
		if (!hasCode(error, RESTJSONErrorCodes.UnknownGuild, RESTJSONErrorCodes.MissingAccess, RESTJSONErrorCodes.UnknownMember)) {
			return { ...accepted, failure: describeFailure(error) };
		}
		memberRoles = null;
	}
	if (role !== 'boss' || memberRoles === null) return { ...accepted, memberRoles };

	// Reading the guild's commands needs what registering them needs: the applications.commands scope.
	try {
		await rest.get(Routes.applicationGuildCommands(application.id, guildId));
		return { ...accepted, memberRoles, commands: 'allowed' };
	} catch (error) {
		if (hasCode(error, RESTJSONErrorCodes.MissingAccess)) return { ...accepted, memberRoles, commands: 'missing-access' };
		return { ...accepted, memberRoles, failure: describeFailure(error) };
	}
}
