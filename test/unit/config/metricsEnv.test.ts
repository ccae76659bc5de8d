import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/loadConfig.js';
import { ConfigError, type ConfigProblem } from '../../../src/errors.js';

const ENV = {
	BOSS_TOKEN: 'MTAwMDAwMDAwMDAwMDAwMDAx.GbOsS1.boss-secret-aaaaaaaaaaaaaaaaaaaaaaaa',
	WORKER_TOKENS: 'MTAwMDAwMDAwMDAwMDAwMDAy.GwOrk0.worker-0-bbbbbbbbbbbbbbbbbbbbbbbb',
	GUILD_ID: '175928847299117063',
};

function load(env: Record<string, string>) {
	return loadConfig({ env: { ...ENV, ...env }, configDir: '/nonexistent', dotenvPath: false });
}

function problemsOf(env: Record<string, string>): ConfigProblem[] {
	try {
		load(env);
	} catch (error) {
		expect(error).toBeInstanceOf(ConfigError);
		return [...(error as ConfigError).problems];
	}
	throw new Error('expected a ConfigError');
}

describe('loadConfig: the health and metrics server', () => {
	it('is off unless MASSNICK_METRICS_PORT is set', () => {
		expect(load({}).metrics).toBeUndefined();
		expect(load({ MASSNICK_METRICS_PORT: '  ' }).metrics).toBeUndefined();
	});

	it('a port alone listens on loopback only', () => {
		expect(load({ MASSNICK_METRICS_PORT: '9464' }).metrics).toEqual({ host: '127.0.0.1', port: 9464 });
	});

	it('MASSNICK_METRICS_HOST opens it elsewhere: an IPv4 or IPv6 address, or a host name', () => {
		expect(load({ MASSNICK_METRICS_PORT: '9464', MASSNICK_METRICS_HOST: '0.0.0.0' }).metrics).toEqual({ host: '0.0.0.0', port: 9464 });
		expect(load({ MASSNICK_METRICS_PORT: '1', MASSNICK_METRICS_HOST: '::1' }).metrics).toEqual({ host: '::1', port: 1 });
		expect(load({ MASSNICK_METRICS_PORT: '65535', MASSNICK_METRICS_HOST: 'localhost' }).metrics).toEqual({ host: 'localhost', port: 65535 });
	});

	it('a port that is not one from 1 to 65535 is refused, naming the key and what to give', () => {
		for (const port of ['0', '65536', '94 64', '9464.5', '-1', 'http', '0x24e8', '123456']) {
			expect(problemsOf({ MASSNICK_METRICS_PORT: port }), port).toEqual([
				{
					key: 'MASSNICK_METRICS_PORT',
					message: `"${port}" is not a port; give a whole number from 1 to 65535 (9464, say), or leave it unset to serve no health checks or metrics`,
				},
			]);
		}
	});

	it('a host with a port, a scheme or a stray character is refused, naming the key', () => {
		for (const host of ['0.0.0.0:9464', 'http://127.0.0.1', '[::1]', 'local host', '-bad.example', 'a..b']) {
			const problems = problemsOf({ MASSNICK_METRICS_PORT: '9464', MASSNICK_METRICS_HOST: host });
			expect(
				problems.map((problem) => problem.key),
				host,
			).toEqual(['MASSNICK_METRICS_HOST']);
			expect(problems[0]!.message).toBe(
				`"${host}" is not an address to listen on; give an IP address (127.0.0.1, the default; 0.0.0.0 for every interface; ::1) or a host name, without a scheme or a port (the port is MASSNICK_METRICS_PORT)`,
			);
		}
	});

	it('a host without a port is refused: it would serve nothing', () => {
		expect(problemsOf({ MASSNICK_METRICS_HOST: '0.0.0.0' })).toEqual([
			{
				key: 'MASSNICK_METRICS_HOST',
				message:
					'is set, but MASSNICK_METRICS_PORT is not: without a port there is no health or metrics server; set MASSNICK_METRICS_PORT (9464, say), or unset MASSNICK_METRICS_HOST',
			},
		]);
	});

	it('a bad port and a bad host are both reported at once', () => {
		expect(problemsOf({ MASSNICK_METRICS_PORT: 'x', MASSNICK_METRICS_HOST: 'a b' }).map((problem) => problem.key)).toEqual([
			'MASSNICK_METRICS_PORT',
			'MASSNICK_METRICS_HOST',
		]);
	});
});
