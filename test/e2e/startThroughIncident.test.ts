import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renamableMembers, type Sandbox, SandboxControl, startSandbox } from '@massnick/discord-sandbox';
import { loadConfig } from '../../src/config/loadConfig.js';
import { runDoctor } from '../../src/doctor/runDoctor.js';
import { type BotProcess, spawnBot } from '../support/spawnBot.js';
import { reportFigures } from '../support/reportFigures.js';
import { startRun } from '../support/spawnRun.js';
import { waitUntil } from '../support/waitUntil.js';

/**
 * A start during a Discord incident: a share of every request answered 500 or 502 from before the
 * first one. Each case first fails every request until each of the bots has had a 5xx (so every
 * start had something to wait out, whatever the dice say), then answers 15% of them so, as
 * Discord does in an incident, and the start must get through and finish its job.
 */
describe('a start through a Discord incident: 15% of requests answered 5xx from before the start', () => {
	let sandbox: Sandbox;
	let control: SandboxControl;
	let bot: BotProcess | undefined;
	const dirs: string[] = [];

	beforeAll(async () => {
		sandbox = await startSandbox({ members: 300, workers: 3, seed: 47, timeScale: 50 });
		control = new SandboxControl(sandbox.controlUrl);
	});

	afterEach(async () => {
		await control.faults({ resetFaults: true });
		if (bot?.child.exitCode === null) bot.signal('SIGKILL');
		bot = undefined;
	});

	afterAll(async () => {
		await sandbox?.close();
		for (const dir of dirs) await rm(dir, { recursive: true, force: true });
	});

	const dataDir = async (): Promise<string> => {
		const dir = await mkdtemp(join(tmpdir(), 'massnick-incident-'));
		dirs.push(dir);
		return dir;
	};

	/** Every request fails until every bot (the boss and each worker) has had a 5xx; then 15% do. Resolves with where it began in the request log. */
	const incident = async (): Promise<number> => {
		const { lastSeq } = await control.requests();
		await control.faults({ errorRate: 1 });
		const bots = new Set([sandbox.bossId, ...sandbox.workerIds]);
		await waitUntil(
			async () => {
				const failed = new Set((await control.requests(lastSeq)).requests.filter((request) => request.status >= 500).map((request) => request.botUserId));
				return [...bots].every((id) => failed.has(id));
			},
			{ what: 'a 5xx for each bot' },
		);
		await control.faults({ errorRate: 0.15 });
		return lastSeq;
	};

	/** 5xx answers since `from`, and how many waits the output logged. */
	const figures = async (from: number, output: string) => ({
		injected5xx: (await control.requests(from)).requests.filter((request) => request.status >= 500).length,
		waitsLogged: output.match(/waiting for Discord: /g)?.length ?? 0,
	});

	const renamedTo = async (prefix: string): Promise<string[]> => {
		const renamable = new Set(renamableMembers(sandbox));
		return (await control.members(sandbox.guildId)).filter((member) => renamable.has(member.id) && member.nick?.startsWith(prefix)).map((member) => member.id);
	};

	it('npm start waits out every 5xx, says what it waits for, and its /massnick renames everyone', async () => {
		const started = spawnBot(sandbox, await dataDir());
		const from = await incident();
		bot = await started;
		expect(bot.output()).toMatch(/waiting for Discord: (the boss|worker \d) logging in failed \(http-50[02]\); trying again in \d+\.\d s/);

		const everyone = renamableMembers(sandbox).length;
		const ended = (): Array<{ state?: string; failed?: number }> =>
			bot!
				.output()
				.split('\n')
				.filter((line) => line.includes('"msg":"job ended"'))
				.map((line) => JSON.parse(line) as { state?: string; failed?: number });
		const finish = async (): Promise<{ state?: string; failed?: number }> => {
			const before = ended().length;
			await control.invoke(sandbox.guildId, sandbox.ownerId, 'massnick', { name: 'Storm {id}' }, sandbox.channelId);
			try {
				await waitUntil(() => ended().length > before, { what: 'the job to end through the incident', timeoutMs: 60_000 });
			} catch (error) {
				const renamed = (await renamedTo('Storm ')).length;
				throw new Error(`${(error as Error).message} (${renamed} of ${everyone} renamed); the bot's last output:\n${bot!.output().slice(-6000)}`);
			}
			return ended().at(-1)!;
		};
		// Each change is tried 5 times (retry.attempts): at 15% 5xx, one member in about 13,000 fails
		// all five and is counted failed; a rerun does what is left (the done marker), as a user would.
		const first = await finish();
		expect(first.state).toBe('finished');
		expect((await renamedTo('Storm ')).length + (first.failed ?? 0)).toBe(everyone);
		if ((first.failed ?? 0) > 0) expect((await finish()).state).toBe('finished');
		expect((await renamedTo('Storm ')).length).toBe(everyone);
		reportFigures('5xx from before npm start', { ...(await figures(from, bot.output())), renamed: everyone, lost: 0 });
		bot.signal('SIGTERM');
		await bot.exited;
		expect(bot.output()).toContain('stopped cleanly');
		expect(bot.output()).not.toContain(sandbox.bossToken);
	}, 90_000);

	it('massnick run waits out every 5xx and finishes its job, exit 0', async () => {
		const dir = await dataDir();
		const run = startRun(sandbox, dir, ['massnick', '--name', 'Gale {id}']);
		const from = await incident();
		const code = await run.exited;
		// Not on a terminal: the log (JSON on stdout) says what the start waited for.
		expect(run.stdout()).toMatch(/"msg":"waiting for Discord: (the boss|worker \d) logging in failed \(http-50[02]\); trying again in \d+\.\d s"/);
		// Exit 1 says some member failed all five tries (about one in 13,000 at 15% 5xx) and the same
		// command finishes them: a scheduler runs it again, and so does this test.
		if (code === 1) {
			const again = startRun(sandbox, dir, ['massnick', '--name', 'Gale {id}']);
			expect(await again.exited, again.stderr()).toBe(0);
		} else expect(code, run.stderr()).toBe(0);
		const renamed = (await renamedTo('Gale ')).length;
		expect(renamed).toBe(renamableMembers(sandbox).length);
		reportFigures('5xx from before massnick run', { ...(await figures(from, run.stdout())), renamed, lost: 0 });
		for (const token of [sandbox.bossToken, ...sandbox.workerTokens]) expect(run.stderr() + run.stdout()).not.toContain(token);
	}, 90_000);

	it('npm run doctor reads every bot through the incident and reports the healthy setup it is', async () => {
		await control.faults({ errorRate: 0.15 });
		const config = loadConfig({
			env: { BOSS_TOKEN: sandbox.bossToken, WORKER_TOKENS: sandbox.workerTokens.join(','), GUILD_ID: sandbox.guildId, DISCORD_API_URL: sandbox.apiUrl },
			dotenvPath: false,
		});
		const { lastSeq } = await control.requests();
		const result = await runDoctor({ config, out: () => {} });
		const failed = (await control.requests(lastSeq)).requests.filter((request) => request.status >= 500).length;
		expect(result.findings.filter((finding) => finding.severity === 'fatal')).toEqual([]);
		expect(result.exitCode).toBe(0);
		// The doctor's reads met the incident: some of its requests were answered 5xx, and waited out.
		expect(failed).toBeGreaterThan(0);
	}, 90_000);
});
