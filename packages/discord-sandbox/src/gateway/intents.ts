import { GatewayIntentBits } from 'discord-api-types/v10';

/**
 * Every intent bit Discord defines. Identify with any other bit is closed with 4013
 * ({@link https://discord.com/developers/docs/topics/opcodes-and-status-codes#gateway-gateway-close-event-codes | Invalid intent(s)}).
 */
export const KNOWN_INTENTS: number = Object.values(GatewayIntentBits)
	.filter((value): value is number => typeof value === 'number')
	.reduce((all, bit) => all | bit, 0);

/**
 * The intents an application must have switched on in the developer portal before it may identify
 * with them; otherwise Discord closes with 4014
 * ({@link https://discord.com/developers/docs/events/gateway#privileged-intents | Privileged intents}).
 */
export const PRIVILEGED_INTENTS: number = GatewayIntentBits.GuildMembers | GatewayIntentBits.GuildPresences | GatewayIntentBits.MessageContent;
