import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxControl, type SandboxRequest, startSandbox } from '@massnick/discord-sandbox';
import { reportFigures } from '../support/reportFigures.js';
import { spawnBot, type BotProcess } from '../support/spawnBot.js';
import { type Sandbox, startMassnickOn } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const ROLE_ROUTE = '/guilds/:id/members/:id/roles/:id';

function roleChanges(requests: SandboxRequest[], method: 'PUT' | 'DELETE'): SandboxRequest[] {
	return requests.filter((request) => request.route === ROLE_ROUTE && request.method === method && request.status === 204);
}

describe('/massrole after a crash of the real process', () => {
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

	it('SIGKILL mid-run, then a rerun finishes it, with duplicates only within what was in flight, and /restore undoes it all', async () => {
		sandbox = await startSandbox({ members: 900, workers: 4, seed: 21, timeScale: 60 });
		dataDir = await mkdtemp(join(tmpdir(), 'massnick-rolecrash-'));
		const control = new SandboxControl(sandbox.controlUrl);
		const eventId = (await control.state()).roles.find((role) => role.name === 'Event')!.id;
		const holdersBefore = new Set((await control.members(sandbox.guildId)).filter((member) => member.roles.includes(eventId)).map((member) => member.id));

		bot = await spawnBot(sandbox, dataDir);
		await control.invoke(sandbox.guildId, sandbox.ownerId, 'massrole add', { role: eventId }, sandbox.channelId);
		await waitUntil(async () => roleChanges((await control.requests()).requests, 'PUT').length >= 120, { what: '120 roles given' });
		bot.child.kill('SIGKILL');
		await bot.exited;
		const { requests: beforeKill, lastSeq: crashSeq } = await control.requests();
		const givenBeforeKill = roleChanges(beforeKill, 'PUT').length;

		const again = await startMassnickOn(sandbox, dataDir, sandbox.workerTokens);
		try {
			const interrupted = await again.massnick.jobs.interrupted();
			expect(interrupted?.header.action).toBe('role-add');
			const rerun = await again.runJob('massrole add', { role: eventId });
			expect(rerun.result?.state).toBe('finished');

			const { requests } = await control.requests();
			const puts = roleChanges(requests, 'PUT');
			const perMember = new Map<string, number>();
			for (const put of puts) perMember.set(put.targetId!, (perMember.get(put.targetId!) ?? 0) + 1);
			const twice = [...perMember].filter(([, count]) => count > 1).map(([id]) => id);
			// Only a request on the wire at the kill can go out again: at most what the workers held in flight.
			expect(twice.length).toBeLessThanOrEqual(4 * again.config.workers.maxInFlight);
			expect(
				roleChanges(
					requests.filter((request) => request.seq > crashSeq),
					'PUT',
				).length,
			).toBe(rerun.progress.snapshot().changed);

			const ourBots = new Set([again.massnick.boss.client.user!.id, ...again.massnick.fleet.workers.map((worker) => worker.client.user!.id)]);
			const after = await control.members(sandbox.guildId);
			const lacking = after.filter((member) => !ourBots.has(member.id) && !member.roles.includes(eventId));
			expect(lacking).toEqual([]);

			const { lastSeq } = await control.requests();
			const restore = await again.runJob('restore', {});
			expect(restore.result?.state).toBe('finished');
			const deletes = roleChanges((await control.requests(lastSeq)).requests, 'DELETE');
			const holdersNow = new Set((await control.members(sandbox.guildId)).filter((member) => member.roles.includes(eventId)).map((member) => member.id));
			expect(holdersNow).toEqual(holdersBefore);
			expect(deletes).toHaveLength(perMember.size);
			reportFigures('massrole SIGKILL and rerun', {
				givenBeforeKill,
				finishedByRerun: rerun.progress.snapshot().changed,
				lacking: lacking.length,
				twice: twice.length,
				undoneByRestore: deletes.length,
			});
		} finally {
			await again.close();
		}
	});
});
