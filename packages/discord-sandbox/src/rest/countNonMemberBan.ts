import type { SandboxContext } from '../SandboxContext.js';

/**
 * Counts one ban of a user who is not a member against the guild's non-member ban limit (every
 * token together: "none of the integrations within the server can ban either", discord-api-docs
 * #5002); false when the limit is reached, and the ban must be refused with 30035.
 */
export function countNonMemberBan(ctx: SandboxContext, guildId: string): boolean {
	return ctx.limiter.hit(`nonMemberBans:${guildId}`, ctx.scale(ctx.options.rateLimits.nonMemberBans)).allowed;
}
