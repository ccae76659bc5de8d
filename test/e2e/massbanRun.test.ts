import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControl, type SandboxRequest, startSandbox } from '@massnick/discord-sandbox';
import { startRun } from '../support/spawnRun.js';
import type { Sandbox } from '../support/startStack.js';

const BULK_BAN = '/guilds/:id/bulk-ban';
/** More than 100: confirmed by its count. */
const RAIDERS = 150;
/** At most 100: not. */
const SPAMMERS = 20;
const REFUSED = 4;

describe('massnick run massban: a ban of more than 100 members needs --confirm-count', () => {
	let sandbox: Sandbox;
	let control: SandboxControl;
	let dataDir: string;
	let raidIds: string[];
	let spamIds: string[];
	const raid = ['--joined-after', '30m', '--name-matches', '/free nitro/'];
	const spam = ['--joined-after', '30m', '--name-matches', '/cheap boost/'];
	const isBanned = (id: string): boolean => sandbox.state.bans.has(BigInt(id));

	async function run(args: readonly string[]): Promise<{ code: number | string; stderr: string; bulkBans: SandboxRequest[] }> {
		const { lastSeq } = await control.requests();
		const started = startRun(sandbox, dataDir, args);
		const code = await started.exited;
		const { requests } = await control.requests(lastSeq);
		return { code, stderr: started.stderr(), bulkBans: requests.filter((request) => request.method === 'POST' && request.route === BULK_BAN) };
	}

	beforeAll(async () => {
		sandbox = await startSandbox({ members: 200, workers: 2, seed: 14, timeScale: 50 });
		control = new SandboxControl(sandbox.controlUrl);
		const massnick = (await control.state()).roles.find((role) => role.name === 'Massnick')!;
		await control.editRole(sandbox.guildId, massnick.id, { permissions: ['ManageNicknames', 'ViewAuditLog', 'BanMembers', 'ManageGuild'] });
		({ raidIds } = await control.stageRaid(sandbox.guildId, { count: RAIDERS, realJoiners: 5, windowMs: 5 * 60_000 }));
		({ raidIds: spamIds } = await control.stageRaid(sandbox.guildId, { count: SPAMMERS, windowMs: 5 * 60_000, names: 'cheap boost {n}', seed: 3 }));
		dataDir = await mkdtemp(join(tmpdir(), 'massnick-ban-run-'));
	});

	afterAll(async () => {
		await sandbox?.close();
		if (dataDir) await rm(dataDir, { recursive: true, force: true });
	});

	it('without --confirm-count, or with another number, a ban of more than 100 bans nobody and says the flag and the number to give', async () => {
		const bare = await run(['massban', ...raid]);
		expect(bare.code).toBe(REFUSED);
		expect(bare.stderr).toContain(
			`A ban of more than 100 members is confirmed by its count (/restore unbans them): it would change ${RAIDERS} members now (banned). Nothing ran. Check whom with --dry-run, then run the same command with --confirm-count ${RAIDERS}.`,
		);
		expect(bare.stderr).not.toContain('cannot be undone');
		expect(bare.bulkBans).toEqual([]);
		const wrong = await run(['massban', ...raid, '--confirm-count', String(RAIDERS + 1)]);
		expect(wrong.code).toBe(REFUSED);
		expect(wrong.stderr).toContain(`--confirm-count ${RAIDERS + 1} does not match: it would change ${RAIDERS} members now (banned), so nothing ran`);
		expect(wrong.bulkBans).toEqual([]);
		expect(sandbox.state.bans.size).toBe(0);
	});

	it('a ban of at most 100 needs no --confirm-count', async () => {
		const done = await run(['massban', ...spam]);
		expect(done.code).toBe(0);
		expect(done.bulkBans.length).toBeGreaterThan(0);
		expect(spamIds.every(isBanned)).toBe(true);
		expect(raidIds.some(isBanned)).toBe(false);
		expect(sandbox.state.bans.size).toBe(SPAMMERS);
	});

	it('with the right count it bans exactly the raid accounts', async () => {
		const done = await run(['massban', ...raid, '--reason', 'raid', '--confirm-count', String(RAIDERS)]);
		expect(done.code).toBe(0);
		expect(done.bulkBans.every((request) => request.status === 200)).toBe(true);
		expect(raidIds.every(isBanned)).toBe(true);
		expect(sandbox.state.bans.size).toBe(RAIDERS + SPAMMERS);
	});
});
