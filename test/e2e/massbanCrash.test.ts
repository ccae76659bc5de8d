import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxControl, type SandboxRequest, startSandbox } from '@massnick/discord-sandbox';
import { afterEach, describe, expect, it } from 'vitest';
import { commandAnswer } from '../support/commandAnswer.js';
import { journalLines } from '../support/journalLines.js';
import { reportFigures } from '../support/reportFigures.js';
import { type BotProcess, spawnBot } from '../support/spawnBot.js';
import { startFromPreview } from '../support/startFromPreview.js';
import { type Sandbox, startMassnickOn } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const WORKERS = 4;
const RAID = 2400;
const bulkBans = (requests: readonly SandboxRequest[]): SandboxRequest[] =>
	requests.filter((request) => request.method === 'POST' && request.route === '/guilds/:id/bulk-ban' && request.status === 200);

describe('/massban after a crash of the real process', () => {
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

	it('SIGKILL between bulk bans: every user banned was journaled first, the restart bans only who is left, and /restore unbans exactly the raid', async () => {
		// One bulk ban per worker every 1.5 s: a worker's 600 raid accounts take three calls, so the kill falls between them.
		sandbox = await startSandbox({
			members: 1500,
			workers: WORKERS,
			seed: 41,
			timeScale: 10,
			rateLimits: { routes: { bulkBan: { limit: 1, windowMs: 15_000 } } },
		});
		dataDir = await mkdtemp(join(tmpdir(), 'massnick-bancrash-'));
		const { guildId } = sandbox;
		const control = new SandboxControl(sandbox.controlUrl);
		const massnickRole = sandbox.state.guild.roleIds.Massnick;
		await control.editRole(guildId, massnickRole, { permissions: ['ManageNicknames', 'ChangeNickname', 'ViewAuditLog', 'BanMembers', 'ManageGuild'] });
		const { raidIds } = await control.stageRaid(guildId, { count: RAID, realJoiners: 200 });
		const bans = sandbox.state.bans;

		bot = await spawnBot(sandbox, dataDir);
		const asked = await control.invoke(guildId, sandbox.ownerId, 'massban', { joined_after: '15m', name_matches: '/free nitro/' }, sandbox.channelId);
		// A ban of more than 100 members starts once its count is typed in the modal of the preview's Start.
		const preview = await commandAnswer(control, asked, 60_000);
		expect(await startFromPreview(control, sandbox, sandbox.ownerId, preview)).toBe(RAID);
		await waitUntil(() => bans.size > 0, { what: 'the first bulk ban', everyMs: 5 });
		bot.child.kill('SIGKILL');
		await bot.exited;
		bot = undefined;
		const bannedAtKill = raidIds.filter((id) => bans.has(BigInt(id)));
		expect(bannedAtKill.length).toBeLessThan(RAID);
		const { lastSeq: killedAt } = await control.requests();
		const journaled = new Set((await journalLines(dataDir, guildId)).filter((line) => line.type === 'original').map((line) => line.id as string));
		expect(bannedAtKill.filter((id) => !journaled.has(id))).toEqual([]);

		// Started again with no command: the interrupted job goes on, for the members still there.
		bot = await spawnBot(sandbox, dataDir);
		await waitUntil(() => bans.size === RAID, { what: 'every raid account banned after the restart', timeoutMs: 60_000 });
		let finished: Record<string, unknown> | undefined;
		await waitUntil(
			async () => {
				finished = (await journalLines(dataDir, guildId)).find((line) => line.type === 'status' && line.state === 'finished');
				return finished !== undefined;
			},
			{ what: 'the resumed job to finish' },
		);
		// It banned exactly who was left: no user twice (Discord would have listed them failed).
		expect(finished!.counts).toMatchObject({ changed: RAID - bannedAtKill.length, failed: {} });
		const { requests } = await control.requests();
		const after = requests.filter((request) => request.seq > killedAt);
		expect(bulkBans(after).length).toBeGreaterThan(0);
		expect(requests.filter((request) => request.status === 403)).toEqual([]);
		// Discord's bucket outlives the process: a worker whose bulk ban before the kill was less than
		// a window (1.5 s here) before its first after the restart meets a 429 on that one call, as it
		// would on Discord (the new process cannot know the old one's last call; discord.js waits it
		// out, nothing is lost). Any other 429 fails the test.
		const windowMs = 15_000 / 10;
		const lastBefore = new Map<string, number>();
		for (const request of requests.filter((sent) => sent.seq <= killedAt && sent.route === '/guilds/:id/bulk-ban'))
			lastBefore.set(request.botUserId!, request.at);
		const firstAfter = new Map<string, SandboxRequest>();
		for (const request of after.filter((sent) => sent.method === 'POST' && sent.route === '/guilds/:id/bulk-ban')) {
			if (!firstAfter.has(request.botUserId!)) firstAfter.set(request.botUserId!, request);
		}
		const heldOver = (request: SandboxRequest): boolean => {
			const before = lastBefore.get(request.botUserId!);
			return firstAfter.get(request.botUserId!) === request && before !== undefined && request.at - before < windowMs;
		};
		expect(requests.filter((request) => request.status === 429 && !heldOver(request))).toEqual([]);
		expect(raidIds.every((id) => bans.has(BigInt(id)))).toBe(true);
		bot.signal('SIGTERM');
		expect(await bot.exited).toBe(0);
		bot = undefined;

		const again = await startMassnickOn(sandbox, dataDir, sandbox.workerTokens);
		try {
			const { lastSeq } = await control.requests();
			expect((await again.runJob('restore', {})).result?.state).toBe('finished');
			const unbans = (await control.requests(lastSeq)).requests.filter((request) => request.method === 'DELETE' && request.route === '/guilds/:id/bans/:id');
			expect(unbans.map((request) => request.targetId).sort()).toEqual([...raidIds].sort());
			expect(bans.size).toBe(0);
		} finally {
			await again.close();
		}
		reportFigures('massban SIGKILL and resume', {
			bannedBeforeKill: bannedAtKill.length,
			bannedAfterRestart: RAID - bannedAtKill.length,
			journaled: journaled.size,
		});
	});
});
