import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControl, startSandbox } from '@massnick/discord-sandbox';
import { freePort } from '../support/freePort.js';
import { parsePromText, type Scrape } from '../support/promText.js';
import { type CliRun, startRun } from '../support/spawnRun.js';
import type { Sandbox } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const JOINERS = 8;

/** stdout as log records, the lines written so far (the last may be cut mid-line). */
function logLines(stdout: string): Array<Record<string, unknown>> {
	return stdout
		.split('\n')
		.filter((line) => line.startsWith('{') && line.endsWith('}'))
		.map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * `massnick run massrole add --keep`, as a pod runs a standing rule for months, with
 * MASSNICK_METRICS_PORT set: the health checks and metrics of `massnick start`, ready while the
 * rule runs, the latency of each joiner it changes in /metrics, and a log that sums the rule up
 * instead of a progress line every --progress-every.
 */
describe('massnick run --keep with MASSNICK_METRICS_PORT', () => {
	let sandbox: Sandbox;
	let control: SandboxControl;
	let dataDir: string;
	let run: CliRun | undefined;

	beforeAll(async () => {
		sandbox = await startSandbox({ members: 200, workers: 2, seed: 26, timeScale: 50 });
		control = new SandboxControl(sandbox.controlUrl);
		dataDir = await mkdtemp(join(tmpdir(), 'massnick-run-health-'));
	}, 60_000);

	afterAll(async () => {
		if (run?.child.exitCode === null) run.signal('SIGKILL');
		await sandbox?.close();
		await rm(dataDir, { recursive: true, force: true });
	});

	it('serves /healthz, /readyz and /metrics while the rule follows joins: its joiners’ latency, its changes, the rule running; SIGTERM ends it and the port', async () => {
		const port = await freePort();
		const url = `http://127.0.0.1:${port}`;
		const scrape = async (): Promise<Scrape> => parsePromText(await (await fetch(`${url}/metrics`)).text());
		const role = (await control.createRole(sandbox.guildId, { name: 'Newcomer', position: 1 })).id;
		run = startRun(sandbox, dataDir, ['massrole', 'add', '--role', role, '--keep', '--progress-every', '1'], { MASSNICK_METRICS_PORT: String(port) });
		const following = () => logLines(run!.stdout()).find((line) => line.msg === 'rule following');
		await waitUntil(() => following() !== undefined || run!.child.exitCode !== null, { what: 'the rule to follow joins', timeoutMs: 60_000 });
		expect(following(), run.stderr()).toBeDefined();
		expect(run.stdout()).toContain(`"url":"${url}"`);

		const alive = await fetch(`${url}/healthz`);
		expect([alive.status, await alive.text()]).toEqual([200, 'ok\n']);
		const ready = await fetch(`${url}/readyz`);
		expect([ready.status, await ready.text()]).toEqual([200, 'ready\n']);
		// The sweep's last members go on after its listing: from an empty queue on, what changes is for joiners.
		let before = await scrape();
		await waitUntil(async () => (before = await scrape()).sum('massnick_queue_depth') + before.sum('massnick_in_flight') === 0, { what: 'the sweep to drain' });
		expect(before.sum('massnick_ready')).toBe(1);
		expect(before.sum('massnick_rules_running')).toBe(1);
		expect(before.find('massnick_workers', { state: 'ready' })[0]?.value).toBe(2);
		expect(before.sum('massnick_rule_latency_seconds_count')).toBe(0);

		const { ids: joiners } = await control.addMembers(sandbox.guildId, JOINERS);
		await waitUntil(
			async () => {
				const members = await control.members(sandbox.guildId);
				return joiners.every((id) => members.find((member) => member.id === id)?.roles.includes(role));
			},
			{ what: 'every joiner to get @Newcomer', timeoutMs: 30_000 },
		);
		// The change lands before the process counts it: the scrape may come a moment early.
		let after = await scrape();
		await waitUntil(async () => (after = await scrape()).sum('massnick_rule_latency_seconds_count', { action: 'role-add' }) >= JOINERS, {
			what: 'the joiners’ latency in /metrics',
		});
		expect(after.find('massnick_rule_latency_seconds_bucket', { action: 'role-add', le: '120' })[0]?.value).toBe(
			after.sum('massnick_rule_latency_seconds_count', { action: 'role-add' }),
		);
		expect(
			after.sum('massnick_changes_total', { action: 'role-add', mode: 'apply' }) - before.sum('massnick_changes_total', { action: 'role-add', mode: 'apply' }),
		).toBe(JOINERS);

		run.signal('SIGTERM');
		expect(await run.exited).toBe(3);
		const lines = logLines(run.stdout());
		const start = lines.findIndex((line) => line.msg === 'rule following');
		// Past its sweep, no progress line every second: the rule's summary, at most once a minute.
		expect(lines.slice(start).filter((line) => line.msg === 'job progress')).toEqual([]);
		expect(lines.filter((line) => line.msg === 'rule following')).toHaveLength(1);
		expect(lines.find((line) => line.msg === 'run ended')).toMatchObject({ state: 'cancelled' });
		await expect(fetch(`${url}/healthz`)).rejects.toThrow();
		for (const token of [sandbox.bossToken, ...sandbox.workerTokens]) expect(run.stdout()).not.toContain(token);
	}, 120_000);
});
