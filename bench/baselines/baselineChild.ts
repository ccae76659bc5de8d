import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { Client, Events, GatewayIntentBits, type Guild } from 'discord.js';

/**
 * What a baseline child and the harness share: the settings it reads from its environment, the
 * events it prints on stdout (one JSON object a line), and the `go` line it waits for on stdin.
 *
 * The baselines are deliberately plain discord.js: default caches, default options, except the
 * REST `offset`, which is scaled with the sandbox's time scale for them as for massnick (at 20×,
 * discord.js's fixed 50 ms after each 500 ms window would cost any design 9% of its rate).
 */
export interface BaselineSettings {
	apiUrl: string;
	guildId: string;
	tokens: string[];
	/** The nickname is `${prefix} ${member id}`, so every rename is a real change. */
	prefix: string;
	offsetMs: number;
}

/** The harness sets these; a baseline reads nothing else. */
export const BASELINE_ENV = {
	apiUrl: 'BENCH_API_URL',
	guildId: 'BENCH_GUILD_ID',
	tokens: 'BENCH_TOKENS',
	prefix: 'BENCH_NICK_PREFIX',
	offsetMs: 'BENCH_REST_OFFSET_MS',
} as const;

export function readBaselineSettings(env: NodeJS.ProcessEnv = process.env): BaselineSettings {
	const get = (key: string): string => {
		const value = env[key];
		if (!value) throw new Error(`${key} is not set; baselines are started by npm run bench`);
		return value;
	};
	return {
		apiUrl: get(BASELINE_ENV.apiUrl),
		guildId: get(BASELINE_ENV.guildId),
		tokens: get(BASELINE_ENV.tokens).split(','),
		prefix: get(BASELINE_ENV.prefix),
		offsetMs: Number(get(BASELINE_ENV.offsetMs)),
	};
}

/** The events a baseline prints. */
export type BaselineEvent =
	| { event: 'ready'; clients: number }
	| { event: 'fetched'; members: number; ms: number }
	| { event: 'done'; renamed: number; failed: number; ms: number }
	| { event: 'error'; message: string };

export function report(event: BaselineEvent): void {
	process.stdout.write(`${JSON.stringify(event)}\n`);
}

/** Resolves when the harness writes `go`: everything before it (login) is not measured. */
export async function waitForGo(): Promise<void> {
	const lines = createInterface({ input: process.stdin });
	for await (const line of lines) {
		if (line.trim() === 'go') {
			lines.close();
			return;
		}
	}
	throw new Error('stdin closed before go');
}

/**
 * A discord.js client with the Guild Members intent, logged in and holding the guild, as a
 * member-fetching bot of the 2021 kind was set up. Caches are discord.js's defaults.
 */
export async function loginBaselineClient(token: string, settings: BaselineSettings): Promise<{ client: Client; guild: Guild }> {
	const client = new Client({
		intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers],
		rest: { api: settings.apiUrl, offset: settings.offsetMs },
	});
	const ready = once(client, Events.ClientReady);
	await client.login(token);
	await ready;
	const guild = client.guilds.cache.get(settings.guildId);
	if (!guild) throw new Error(`the bot is not in guild ${settings.guildId}`);
	return { client, guild };
}

/** Runs a baseline's body, reporting a failure as an event and an exit code. */
export async function runBaseline(body: (settings: BaselineSettings) => Promise<void>): Promise<void> {
	try {
		await body(readBaselineSettings());
		process.exit(0);
	} catch (error) {
		report({ event: 'error', message: (error as Error).message });
		process.exit(1);
	}
}
