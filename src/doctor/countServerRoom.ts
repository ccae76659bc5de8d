import type { BotFacts } from './BotFacts.js';
import type { GuildFacts } from './GuildFacts.js';
import { SERVER_LIMITS } from './serverLimits.js';

/** How full the server is against Discord's limits on integrations and roles. */
export interface ServerRoom {
	/** Our bots in the server. */
	readonly ours: { readonly boss: boolean; readonly workers: number };
	/** Other applications' bots, seen by their managed roles (`tags.bot_id`). */
	readonly otherBots: number;
	/** Every bot seen in the server, ours included. */
	readonly bots: number;
	/** Integrations that are not bots (Twitch, YouTube, role subscriptions), by their roles' `integration_id`. */
	readonly otherIntegrations: number;
	/** At least this many of the server's integrations are in use: a bot without a role is not seen. */
	readonly integrations: number;
	/** Every role, `@everyone` included. */
	readonly roles: number;
	/** Our configured bots whose token works but that are not in the server: each will take one of each. */
	readonly toAdd: number;
	/** At most this many more bots fit: the tighter of the integration room and the role room. */
	readonly moreBots: number;
	/** The limit `moreBots` comes from (integrations on a tie: it is the one Discord names when it refuses). */
	readonly limitedBy: 'integrations' | 'roles';
}

/**
 * Counts, from the roles already read and without listing a member, what the server holds against
 * Discord's 50 integrations and 250 roles. Every bot is an integration, and a bot invited with
 * permissions brings a managed role tagged with its id: our own bots are known by id, the others
 * by those roles. Reading the integrations themselves (`GET /guilds/{id}/integrations`) would need
 * Manage Guild, which no massnick bot has, so a bot that has no role is not seen: the counts are
 * lower bounds, the room an upper bound.
 *
 * @see {@link https://discord.com/developers/docs/topics/permissions#role-object-role-tags-structure}
 */
export function countServerRoom(guild: GuildFacts, bots: readonly BotFacts[]): ServerRoom {
	const inServer = bots.filter((bot) => bot.memberRoles && bot.application);
	const ourIds = new Set(bots.flatMap((bot) => (bot.application ? [bot.application.botUserId] : [])));
	const botIds = new Set(inServer.map((bot) => bot.application!.botUserId));
	const otherBotIds = new Set<string>();
	const integrationIds = new Set<string>();
	for (const role of guild.roles) {
		if (!role.managed) continue;
		const botId = role.tags?.bot_id;
		const integrationId = role.tags?.integration_id;
		if (botId !== undefined) {
			botIds.add(botId);
			if (!ourIds.has(botId)) otherBotIds.add(botId);
		} else if (integrationId !== undefined) integrationIds.add(integrationId);
	}
	const integrations = botIds.size + integrationIds.size;
	const integrationRoom = Math.max(0, SERVER_LIMITS.integrations - integrations);
	const roleRoom = Math.max(0, SERVER_LIMITS.roles - guild.roles.length);
	return {
		ours: { boss: inServer.some((bot) => bot.role === 'boss'), workers: inServer.filter((bot) => bot.role === 'worker').length },
		otherBots: otherBotIds.size,
		bots: botIds.size,
		otherIntegrations: integrationIds.size,
		integrations,
		roles: guild.roles.length,
		toAdd: bots.filter((bot) => bot.memberRoles === null).length,
		moreBots: Math.min(integrationRoom, roleRoom),
		limitedBy: roleRoom < integrationRoom ? 'roles' : 'integrations',
	};
}
