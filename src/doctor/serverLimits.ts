/**
 * Discord's limits on how many bots one server holds. docs/discord.md, "How many bots one server
 * holds", gives each with its source.
 *
 * @see {@link https://github.com/discord/discord-api-docs/issues/6842} "Maximum number of guild integrations reached (50)"
 * @see {@link https://github.com/discord/discord-api-docs/issues/2616} managed roles respect the 250-role cap
 */
export const SERVER_LIMITS = Object.freeze({
	/** Integrations per server, every bot one of them. Enforced when a bot is added, not retroactively. */
	integrations: 50,
	/** Roles per server (error 30005), `@everyone` counted to be safe; a bot invited with permissions brings one. */
	roles: 250,
});

/** Room for fewer than this many more bots is "near the limit": the doctor warns before it bites. */
export const NEAR_LIMIT = 5;

/** Where the report sends an operator for the limits and their sources. */
export const LIMITS_SOURCE = 'docs/discord.md, "How many bots one server holds"';
