import { DiscordAPIError } from '@discordjs/rest';
import { DiscordAPIError as ClientDiscordAPIError } from 'discord.js';
import { expect } from 'vitest';

/**
 * The error a request fails with (it must be a `DiscordAPIError`), so a test can check its code and
 * status. The request may come from `@discordjs/rest` or from a discord.js `Client`: discord.js
 * loads the package's CommonJS build and a test its ES module build, which are two classes.
 */
export async function apiFailure(request: Promise<unknown>): Promise<DiscordAPIError> {
	const error = await request.then(
		() => null,
		(error: unknown) => error,
	);
	expect(error instanceof DiscordAPIError || error instanceof ClientDiscordAPIError, `expected a DiscordAPIError, got ${String(error)}`).toBe(true);
	return error as DiscordAPIError;
}
