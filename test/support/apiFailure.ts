import { DiscordAPIError } from '@discordjs/rest';
import { expect } from 'vitest';

/** The error a request fails with (it must be a `DiscordAPIError`), so a test can check its code and status. */
export async function apiFailure(request: Promise<unknown>): Promise<DiscordAPIError> {
	const error = await request.then(
		() => null,
		(error: unknown) => error,
	);
	expect(error).toBeInstanceOf(DiscordAPIError);
	return error as DiscordAPIError;
}
