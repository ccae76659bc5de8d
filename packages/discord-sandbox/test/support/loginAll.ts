import { once } from 'node:events';
import { type Client, Events } from 'discord.js';

/** Logs every client in with its token and resolves once each has emitted `clientReady`. */
export async function loginAll(logins: ReadonlyArray<readonly [Client, string]>): Promise<void> {
	const ready = Promise.all(logins.map(([client]) => once(client, Events.ClientReady)));
	await Promise.all(logins.map(([client, token]) => client.login(token)));
	await ready;
}
