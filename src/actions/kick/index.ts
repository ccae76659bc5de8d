export { KICK, KICK_IRREVERSIBLE, KickAction } from './KickAction.js';
export { kickModule } from './kickModule.js';
