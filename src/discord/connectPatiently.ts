import { type Client, Routes } from 'discord.js';
import { type WaitOutOptions, waitOutTransient } from './waitOutTransient.js';

/**
 * discord.js's own tries of a request that fails for a passing reason, while it logs in: its one
 * request then, Get Gateway Bot, right after the same request passed here.
 */
const LOGIN_RETRIES = 5;

/**
 * Logs `client` in, riding out a Discord incident. discord.js's login makes one request (Get
 * Gateway Bot) and, when it fails, destroys the client for good, so a login is not simply tried
 * again: the same request is first made here until it passes (with the changes' backoff, each wait
 * logged), then the login runs with discord.js retrying that request a few times at once, which a
 * request that has just passed needs only when another blip falls in between.
 *
 * What will not pass (a rejected token, an intent the bot may not use) is thrown as it came, for
 * the caller to word.
 *
 * @see https://discord.com/developers/docs/events/gateway#get-gateway-bot
 */
export async function connectPatiently(client: Client, token: string, wait: WaitOutOptions): Promise<void> {
	client.rest.setToken(token);
	await waitOutTransient(() => client.rest.get(Routes.gatewayBot()), wait);
	const retries = client.rest.options.retries;
	client.rest.options.retries = Math.max(retries, LOGIN_RETRIES);
	try {
		await client.login(token);
	} finally {
		client.rest.options.retries = retries;
	}
}
