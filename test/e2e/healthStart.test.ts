import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '@massnick/discord-sandbox';
import { freePort } from '../support/freePort.js';
import { parsePromText } from '../support/promText.js';
import { type BotProcess, spawnBot } from '../support/spawnBot.js';
import type { Sandbox } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

/** `massnick start` as an operator runs it, with MASSNICK_METRICS_PORT set. */
describe('massnick start with MASSNICK_METRICS_PORT', () => {
	let sandbox: Sandbox;
	let dataDir: string;
	let bot: BotProcess | undefined;

	beforeAll(async () => {
		sandbox = await startSandbox({ members: 50, workers: 2, seed: 9, timeScale: 50 });
		dataDir = await mkdtemp(join(tmpdir(), 'massnick-health-start-'));
	}, 60_000);

	afterEach(() => {
		if (bot?.child.exitCode === null) bot.signal('SIGKILL');
		bot = undefined;
	});

	afterAll(async () => {
		await sandbox?.close();
		await rm(dataDir, { recursive: true, force: true });
	});

	it('serves on loopback only, ready once massnick is, and stops with the process', async () => {
		const port = await freePort();
		bot = await spawnBot(sandbox, dataDir, { env: { MASSNICK_METRICS_PORT: String(port) } });
		expect(bot.output()).toContain(`"url":"http://127.0.0.1:${port}"`);
		const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
		expect([ready.status, await ready.text()]).toEqual([200, 'ready\n']);
		const scrape = parsePromText(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text());
		expect(scrape.sum('massnick_ready')).toBe(1);
		expect(scrape.find('massnick_workers', { state: 'ready' })[0]?.value).toBe(2);
		// Not reachable at the machine's other addresses: bound to 127.0.0.1, not to every interface.
		const outside = Object.values(networkInterfaces())
			.flatMap((addresses) => addresses ?? [])
			.filter((address) => address.family === 'IPv4' && !address.internal);
		for (const { address } of outside) await expect(fetch(`http://${address}:${port}/healthz`), address).rejects.toThrow();
		bot.signal('SIGTERM');
		expect(await bot.exited).toBe(0);
		await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
	}, 60_000);

	/** Why a start with `env` did not get to be ready (spawnBot's error, with its output); a start that did is a failure. */
	const failedStart = (env: Record<string, string>): Promise<string> =>
		spawnBot(sandbox, dataDir, { env }).then(
			(started) => {
				started.signal('SIGKILL');
				throw new Error('massnick started');
			},
			(error: unknown) => (error as Error).message,
		);

	it('a bad port stops the start before any login, naming the key', async () => {
		const message = await failedStart({ MASSNICK_METRICS_PORT: '99999', MASSNICK_METRICS_HOST: '0.0.0.0:9464' });
		expect(message).toMatch(/exited with 1/);
		expect(message).toContain('The configuration has 2 problems:');
		expect(message).toContain('- MASSNICK_METRICS_PORT: "99999" is not a port; give a whole number from 1 to 65535');
		expect(message).toContain('- MASSNICK_METRICS_HOST: "0.0.0.0:9464" is not an address to listen on');
	}, 60_000);

	it('a port in use is refused naming MASSNICK_METRICS_PORT, and a start that fails after the server is up still exits', async () => {
		const taken = createServer().listen(0, '127.0.0.1');
		await once(taken, 'listening');
		const { port } = taken.address() as { port: number };
		try {
			const inUse = await failedStart({ MASSNICK_METRICS_PORT: String(port) });
			expect(inUse).toMatch(/exited with 1/);
			expect(inUse).toContain(`MASSNICK_METRICS_PORT: port ${port} is in use on 127.0.0.1 (EADDRINUSE)`);
		} finally {
			taken.close();
		}
		// A guild the boss is not in: the server is listening when the start fails, and must not keep the process alive.
		const free = await freePort();
		const notInGuild = await failedStart({ MASSNICK_METRICS_PORT: String(free), GUILD_ID: '175928847299117063' });
		expect(notInGuild).toMatch(/exited with 1/);
		expect(notInGuild).toContain('serving /healthz, /readyz and /metrics');
		expect(notInGuild).toContain('is not a member of guild 175928847299117063');
		await waitUntil(
			async () =>
				fetch(`http://127.0.0.1:${free}/healthz`).then(
					() => false,
					() => true,
				),
			{ what: 'the port to be let go' },
		);
	}, 90_000);
});
