import { once } from 'node:events';
import { createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { HealthServer, type HealthRoutes } from '../../../src/health/HealthServer.js';

const quiet = pino({ level: 'silent' });

describe('HealthServer', () => {
	const open: Array<{ close(): Promise<void> | void }> = [];
	afterEach(async () => {
		for (const server of open.splice(0)) await server.close();
	});

	const serve = async (routes: Partial<HealthRoutes> = {}, logger = quiet) => {
		const server = await HealthServer.listen(
			{ host: '127.0.0.1', port: 0 },
			{ whyNotReady: () => undefined, metrics: async () => ({ contentType: 'text/plain; version=0.0.4; charset=utf-8', body: 'up 1\n' }), ...routes },
			logger,
		);
		open.push(server);
		return server;
	};

	it('answers /healthz, /readyz and /metrics, each uncached, and says which paths there are at any other', async () => {
		const server = await serve();
		expect(server.url).toBe(`http://127.0.0.1:${server.address.port}`);
		const answers = await Promise.all(
			['/healthz', '/readyz', '/metrics', '/metrics?name[]=up', '/'].map(async (path) => {
				const response = await fetch(`${server.url}${path}`);
				return [path, response.status, response.headers.get('cache-control'), await response.text()];
			}),
		);
		expect(answers).toEqual([
			['/healthz', 200, 'no-store', 'ok\n'],
			['/readyz', 200, 'no-store', 'ready\n'],
			['/metrics', 200, 'no-store', 'up 1\n'],
			['/metrics?name[]=up', 200, 'no-store', 'up 1\n'],
			['/', 404, 'no-store', 'nothing at /: the paths are /healthz, /readyz and /metrics\n'],
		]);
		expect((await fetch(`${server.url}/metrics`)).headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
	});

	it('/readyz answers 503 with the reason while not ready, and 200 as soon as it is', async () => {
		let why: string | undefined = 'starting: the boss has not logged in yet';
		const server = await serve({ whyNotReady: () => why });
		const before = await fetch(`${server.url}/readyz`);
		expect([before.status, await before.text()]).toEqual([503, 'not ready: starting: the boss has not logged in yet\n']);
		why = undefined;
		expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
	});

	it('HEAD answers as GET without a body; any other method is 405 with Allow', async () => {
		const server = await serve();
		const head = await fetch(`${server.url}/healthz`, { method: 'HEAD' });
		expect([head.status, await head.text()]).toEqual([200, '']);
		const post = await fetch(`${server.url}/metrics`, { method: 'POST', body: 'x' });
		expect([post.status, post.headers.get('allow'), await post.text()]).toEqual([
			405,
			'GET, HEAD',
			'POST is not answered here: use GET (the paths are /healthz, /readyz and /metrics)\n',
		]);
	});

	it('metrics that cannot be collected answer 500 and are logged, and the server goes on', async () => {
		const lines: string[] = [];
		const server = await serve(
			{
				metrics: () => Promise.reject(new Error('collector broke')),
			},
			pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) }),
		);
		const failed = await fetch(`${server.url}/metrics`);
		expect([failed.status, await failed.text()]).toEqual([500, 'could not collect the metrics; the log says why\n']);
		expect(lines.join('')).toContain('collector broke');
		expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
	});

	it('a request target that is no URL is answered 404, and the server goes on', async () => {
		const server = await serve();
		const socket = connect(server.address.port, '127.0.0.1');
		await once(socket, 'connect');
		socket.end('GET http://[ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
		let answer = '';
		socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
		await once(socket, 'close');
		expect(answer).toMatch(/^HTTP\/1\.1 404 /);
		expect(answer).toContain('nothing at http://[: the paths are /healthz, /readyz and /metrics');
		expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
	});

	it('a port already in use is a ConfigError naming MASSNICK_METRICS_PORT and what to do', async () => {
		const taken = createServer();
		taken.listen(0, '127.0.0.1');
		await once(taken, 'listening');
		open.push({ close: () => void taken.close() });
		const { port } = taken.address() as AddressInfo;
		const failure = await HealthServer.listen(
			{ host: '127.0.0.1', port },
			{ whyNotReady: () => undefined, metrics: async () => ({ contentType: '', body: '' }) },
			quiet,
		).catch((error: unknown) => error);
		expect(failure).toBeInstanceOf(ConfigError);
		expect((failure as ConfigError).problems).toEqual([
			{ key: 'MASSNICK_METRICS_PORT', message: `port ${port} is in use on 127.0.0.1 (EADDRINUSE); choose another port, or stop what listens there` },
		]);
	});

	it('a host that is not this machine’s is a ConfigError naming MASSNICK_METRICS_HOST', async () => {
		// An address of TEST-NET-3 (RFC 5737, for documentation), checked not to be one of this machine's.
		const host = '203.0.113.7';
		expect(Object.values(networkInterfaces()).flatMap((addresses) => (addresses ?? []).map((address) => address.address))).not.toContain(host);
		const failure = await HealthServer.listen(
			{ host, port: 0 },
			{ whyNotReady: () => undefined, metrics: async () => ({ contentType: '', body: '' }) },
			quiet,
		).catch((error: unknown) => error);
		expect(failure).toBeInstanceOf(ConfigError);
		expect((failure as ConfigError).problems.map((problem) => problem.key)).toEqual(['MASSNICK_METRICS_HOST']);
		expect((failure as ConfigError).message).toContain(`${host} is not an address of this machine (EADDRNOTAVAIL)`);
	});

	it('close() ends the connections still open, a scrape that has not been answered included', async () => {
		let asked!: () => void;
		const scraped = new Promise<void>((resolve) => (asked = resolve));
		const server = await serve({
			metrics: () => {
				asked();
				return new Promise(() => {});
			},
		});
		const hanging = fetch(`${server.url}/metrics`).then(
			() => 'answered',
			() => 'cut off',
		);
		await scraped;
		open.splice(open.indexOf(server), 1);
		await server.close();
		expect(await hanging).toBe('cut off');
		await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
	});
});
