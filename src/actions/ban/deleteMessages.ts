import type { APIApplicationCommandOptionChoice } from 'discord.js';

/**
 * How much of a banned user's recent messages Discord deletes with them: the choices Discord's
 * own ban dialog offers, up to its week (`delete_message_seconds` 0 to 604,800).
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#bulk-guild-ban}
 */
export const DELETE_MESSAGES: ReadonlyArray<{ readonly choice: APIApplicationCommandOptionChoice<string>; readonly seconds: number }> = [
	{ choice: { name: 'None (the default)', value: 'none' }, seconds: 0 },
	{ choice: { name: 'Previous hour', value: '1h' }, seconds: 3600 },
	{ choice: { name: 'Previous 6 hours', value: '6h' }, seconds: 6 * 3600 },
	{ choice: { name: 'Previous 12 hours', value: '12h' }, seconds: 12 * 3600 },
	{ choice: { name: 'Previous 24 hours', value: '24h' }, seconds: 24 * 3600 },
	{ choice: { name: 'Previous 3 days', value: '3d' }, seconds: 3 * 86_400 },
	{ choice: { name: 'Previous 7 days', value: '7d' }, seconds: 7 * 86_400 },
];

/** The seconds a choice stands for; `none` (0) when not given. Discord and `massnick run` check the value against the choices. */
export function deleteMessageSeconds(value: string | undefined): number {
	return DELETE_MESSAGES.find((entry) => entry.choice.value === value)?.seconds ?? 0;
}
