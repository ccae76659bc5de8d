import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseSandboxArgs } from '../src/cli.js';
import { SandboxOptionError } from '../src/SandboxOptionError.js';
import { resolveSandboxOptions } from '../src/SandboxOptions.js';

/** The package's entry point, as `npm run sandbox` (at the root) and `npm start` (here) run it. */
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

function runCli(args: string[]) {
	return spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { cwd: dirname(MAIN), stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('npm run sandbox', () => {
	it('maps flags to options and names every bad flag', () => {
		expect(parseSandboxArgs(['--members', '5000', '--time-scale', '2.5', '--host', '127.0.0.2', '--integration-limit', '60']).options).toMatchObject({
			members: 5000,
			timeScale: 2.5,
			host: '127.0.0.2',
			integrationLimit: 60,
		});
		let error: unknown;
		try {
			parseSandboxArgs(['--members', 'many', '--port', '1.5']);
		} catch (thrown) {
			error = thrown;
		}
		expect(error).toBeInstanceOf(SandboxOptionError);
		expect((error as SandboxOptionError).problems.map((problem) => problem.option)).toEqual(['--members', '--port']);
	});

	it('prints one JSON line once listening, serves it, and exits 0 on SIGTERM', async () => {
		const child = runCli(['--members', '100', '--workers', '2', '--seed', '4']);
		const stderr: string[] = [];
		child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
		const lines = createInterface({ input: child.stdout });
		const [line] = (await once(lines, 'line')) as [string];
		const printed = JSON.parse(line) as { apiUrl: string; controlUrl: string; guildId: string; ownerId: string; bossToken: string; workerTokens: string[] };
		expect(Object.keys(printed)).toEqual(expect.arrayContaining(['apiUrl', 'controlUrl', 'guildId', 'ownerId', 'bossToken', 'workerTokens']));
		expect(printed.workerTokens).toHaveLength(2);
		const me = await fetch(`${printed.apiUrl}/v10/users/@me`, { headers: { Authorization: `Bot ${printed.bossToken}` } });
		expect(me.status).toBe(200);
		const exited = once(child, 'exit');
		child.kill('SIGTERM');
		const [code] = (await exited) as [number | null];
		expect(code).toBe(0);
		const logs = stderr.join('');
		expect(logs).toContain('sandbox listening');
		for (const token of [printed.bossToken, ...printed.workerTokens]) expect(logs).not.toContain(token);
	});

	it('exits 2 naming the bad flag', async () => {
		const child = runCli(['--members', '3']);
		const stderr: string[] = [];
		child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
		const [code] = (await once(child, 'exit')) as [number | null];
		expect(code).toBe(2);
		expect(stderr.join('')).toContain('--members: must be an integer from 10 to 10000000, got 3');
	});

	it('refuses to listen beyond loopback: its control API has no authentication', async () => {
		const child = runCli(['--host', '0.0.0.0']);
		const stderr: string[] = [];
		child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
		const [code] = (await once(child, 'exit')) as [number | null];
		expect(code).toBe(2);
		expect(stderr.join('')).toMatch(/--host: must be a loopback address .*not "0\.0\.0\.0"/);
		expect(() => resolveSandboxOptions({ host: '192.168.1.4' })).toThrow(/loopback/);
		expect(resolveSandboxOptions({ host: '::1' }).host).toBe('::1');
	});
});
