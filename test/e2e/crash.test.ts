import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxControl, startSandbox } from '@massnick/discord-sandbox';
import { journalLines } from '../support/journalLines.js';
import { memberPatches, renamedTwice } from '../../bench/soak/invariants.js';
import { reportFigures } from '../support/reportFigures.js';
import { spawnBot, type BotProcess } from '../support/spawnBot.js';
import { type Sandbox, startMassnickOn } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const NAME = 'Crash {username}';

describe('crash, restart and shutdown of the real process', () => {
	let sandbox: Sandbox | undefined;
	let bot: BotProcess | undefined;
	let dataDir = '';

	afterEach(async () => {
		bot?.child.kill('SIGKILL');
		await sandbox?.close();
		if (dataDir) await rm(dataDir, { recursive: true, force: true });
		bot = undefined;
		sandbox = undefined;
	});

	it('SIGKILL mid-run loses no original; a restart shows the unfinished job and a rerun finishes it', async () => {
		sandbox = await startSandbox({ members: 1500, workers: 4, seed: 11, timeScale: 40 });
		dataDir = await mkdtemp(join(tmpdir(), 'massnick-crash-'));
		const control = new SandboxControl(sandbox.controlUrl);
		const before = new Map((await control.members(sandbox.guildId)).map((member) => [member.id, member.nick]));

		bot = await spawnBot(sandbox, dataDir);
		await control.invoke(sandbox.guildId, sandbox.ownerId, 'massnick', { name: NAME }, sandbox.channelId);
		await waitUntil(async () => (await control.requests()).requests.filter((request) => request.method === 'PATCH' && request.status === 200).length >= 150);
		bot.child.kill('SIGKILL');
		await bot.exited;
		const { lastSeq: crashSeq } = await control.requests();

		// Every journaled original is the nickname the member really had before the run.
		const originals = (await journalLines(dataDir, sandbox.guildId)).filter((line) => line.type === 'original');
		expect(originals.length).toBeGreaterThanOrEqual(150);
		for (const line of originals) expect(line.from, String(line.id)).toBe(before.get(String(line.id)) ?? null);
		expect((await journalLines(dataDir, sandbox.guildId)).some((line) => line.type === 'status')).toBe(false);

		// Restart: the boss finds the unfinished job, and /status counts what is really left.
		const again = await startMassnickOn(sandbox, dataDir, sandbox.workerTokens);
		try {
			const interrupted = await again.massnick.jobs.interrupted();
			expect(interrupted?.header.target).toBe(NAME);
			await control.invoke(sandbox.guildId, sandbox.ownerId, 'status', {}, sandbox.channelId);
			await waitUntil(() => again.massnick.jobs.lastCount?.result !== undefined);
			const status = again.massnick.jobs.lastCount!;
			const remaining = status.progress.snapshot().changed;
			const membersNow = await control.members(sandbox.guildId);
			const done = membersNow.filter((member) => member.nick === `Crash ${member.username}`).length;
			expect(status.progress.snapshot().alreadyDone).toBe(done);
			expect(remaining).toBeGreaterThan(0);

			const rerun = await again.runJob('massnick', { name: NAME });
			expect(rerun.result?.state).toBe('finished');
			expect(rerun.progress.snapshot().changed).toBe(remaining);

			// Nobody renamed twice, except members whose request was on the wire at the kill.
			const { requests } = await control.requests();
			const twice = renamedTwice(requests);
			expect(twice.length).toBeLessThanOrEqual(4 * again.config.workers.maxInFlight);
			const renamedAtKill = memberPatches(requests).filter((request) => request.seq <= crashSeq && request.status === 200).length;

			// The journal still holds each first original, and /restore brings them all back. An
			// original is lost when a member some run renamed has none journaled, or a wrong one.
			const journal = (await journalLines(dataDir, sandbox.guildId)).filter((line) => line.type === 'original');
			const first = new Map<string, unknown>();
			for (const line of journal) if (!first.has(String(line.id))) first.set(String(line.id), line.from);
			const renamed = new Set(
				memberPatches(requests)
					.filter((request) => request.status === 200)
					.map((request) => request.targetId!),
			);
			expect(renamed.size).toBeGreaterThan(0);
			const originalsLost = [...new Set([...renamed, ...first.keys()])].filter((id) => first.get(id) !== (before.get(id) ?? null));
			expect(originalsLost).toEqual([]);
			const restore = await again.runJob('restore', {});
			expect(restore.result?.state).toBe('finished');
			const notRestored = (await control.members(sandbox.guildId)).filter((member) => member.nick !== (before.get(member.id) ?? null));
			expect(notRestored).toEqual([]);
			reportFigures('SIGKILL and rerun', {
				renamedBeforeKill: renamedAtKill,
				journaled: originals.length,
				finishedByRerun: rerun.progress.snapshot().changed,
				originalsLost: originalsLost.length,
				notRestored: notRestored.length,
				twice: twice.length,
			});
		} finally {
			await again.close();
		}
	});

	it('SIGTERM mid-run finishes what is on the wire, closes the journal as stopped (to be resumed) and exits 0 within 10 s', async () => {
		sandbox = await startSandbox({ members: 1500, workers: 4, seed: 12, timeScale: 20 });
		dataDir = await mkdtemp(join(tmpdir(), 'massnick-term-'));
		const control = new SandboxControl(sandbox.controlUrl);
		bot = await spawnBot(sandbox, dataDir);
		await control.invoke(sandbox.guildId, sandbox.ownerId, 'massnick', { name: NAME }, sandbox.channelId);
		await waitUntil(async () => (await control.requests()).requests.filter((request) => request.method === 'PATCH' && request.status === 200).length >= 50);
		const sentAt = Date.now();
		bot.child.kill('SIGTERM');
		const code = await bot.exited;
		expect(code).toBe(0);
		expect(Date.now() - sentAt).toBeLessThan(10_000);
		const lines = await journalLines(dataDir, sandbox.guildId);
		// Stopped by a shutdown, not cancelled by a person: the next npm start resumes it.
		expect(lines.at(-1)).toMatchObject({ type: 'status', state: 'stopped' });
		expect(bot.output()).not.toContain(sandbox.bossToken);
	});
});
