import { banRoutes } from './bans.js';
import { bulkBanRoutes } from './bulkBan.js';
import { commandRoutes } from './commands.js';
import { gatewayRoutes } from './gateway.js';
import { guildRoleRoutes } from './guildRoles.js';
import { guildRoutes } from './guilds.js';
import { incidentActionRoutes } from './incidentActions.js';
import { interactionRoutes } from './interactions.js';
import { memberKickRoutes } from './memberKick.js';
import { memberRoleRoutes } from './memberRoles.js';
import { memberRoutes } from './members.js';
import { messageRoutes } from './messages.js';
import type { Route } from './Route.js';
import { userRoutes } from './users.js';
import { webhookRoutes } from './webhooks.js';

/**
 * Every REST route the sandbox serves. Order matters where paths overlap: literal segments
 * (`@me`) come before parameters.
 */
export const restRoutes: readonly Route[] = [
	...memberRoutes,
	...memberKickRoutes,
	...memberRoleRoutes,
	...banRoutes,
	...bulkBanRoutes,
	...incidentActionRoutes,
	...guildRoutes,
	...guildRoleRoutes,
	...userRoutes,
	...gatewayRoutes,
	...commandRoutes,
	...interactionRoutes,
	...webhookRoutes,
	...messageRoutes,
];
