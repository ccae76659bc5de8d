import { DiscordAPIError, HTTPError } from 'discord.js';

/**
 * A failed request in a few words for the report: Discord's status, code and message, or the
 * network error. Discord's errors never contain the token; the report is redacted anyway.
 */
export function describeFailure(error: unknown): string {
	if (error instanceof DiscordAPIError) return `Discord answered ${error.status} (${error.code}: ${error.message})`;
	if (error instanceof HTTPError) return `Discord answered ${error.status} ${error.message}`;
	if (error instanceof Error) {
		const cause = (error.cause as NodeJS.ErrnoException | undefined)?.code;
		return cause ? `${error.message} (${cause})` : error.message;
	}
	return String(error);
}

/** Whether `error` is Discord's answer with this HTTP status. */
export function hasStatus(error: unknown, status: number): boolean {
	return error instanceof DiscordAPIError && error.status === status;
}

/** Whether `error` is Discord's answer with one of these JSON error codes. */
export function hasCode(error: unknown, ...codes: readonly number[]): boolean {
	return error instanceof DiscordAPIError && typeof error.code === 'number' && codes.includes(error.code);
}
