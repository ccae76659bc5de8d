import { REQUIRED_PERMISSIONS, REQUIRED_SCOPES, type BotRole } from './requiredPermissions.js';

/**
 * The link that adds a bot to a server with exactly the scopes and permissions its role needs,
 * e.g. `https://discord.com/oauth2/authorize?client_id=…&scope=bot+applications.commands&permissions=19456`
 * for the boss. `applicationId` is read with the bot's own token, so nobody copies it by hand.
 * `extra`: what the operator chose to give too (a worker: the permissions of the commands
 * `invite.actions` lists; the boss's second link: Manage Guild for `/lockdown`).
 *
 * @see {@link https://discord.com/developers/docs/topics/oauth2#bot-authorization-flow}
 */
export function inviteUrl(applicationId: string, role: BotRole, extra = 0n): string {
	return `https://discord.com/oauth2/authorize?client_id=${applicationId}&scope=${REQUIRED_SCOPES[role].join('+')}&permissions=${REQUIRED_PERMISSIONS[role] | extra}`;
}
