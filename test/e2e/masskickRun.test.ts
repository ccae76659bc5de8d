import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControl, type SandboxRequest, startSandbox } from '@massnick/discord-sandbox';
import { startRun } from '../support/spawnRun.js';
import type { Sandbox } from '../support/startStack.js';

const KICK_ROUTE = '/guilds/:id/members/:id';
const RAIDERS = 12;
const REFUSED = 4;

describe('massnick run masskick: the typed count of a terminal is --confirm-count', () => {
	let sandbox: Sandbox;
	let control: SandboxControl;
	let dataDir: string;
	let raidIds: string[];
	const aim = ['--joined-after', '30m', '--name-matches', 'free nitro'];

	async function run(args: readonly string[]): Promise<{ code: number | string; stderr: string; kicks: SandboxRequest[] }> {
		const { lastSeq } = await control.requests();
		const started = startRun(sandbox, dataDir, args);
		const code = await started.exited;
		const { requests } = await control.requests(lastSeq);
		return { code, stderr: started.stderr(), kicks: requests.filter((request) => request.method === 'DELETE' && request.route === KICK_ROUTE) };
	}

	beforeAll(async () => {
		sandbox = await startSandbox({ members: 200, workers: 2, seed: 12, timeScale: 50 });
		control = new SandboxControl(sandbox.controlUrl);
		const massnick = (await control.state()).roles.find((role) => role.name === 'Massnick')!;
		await control.editRole(sandbox.guildId, massnick.id, { permissions: ['ManageNicknames', 'ViewAuditLog', 'ManageRoles', 'KickMembers'] });
		({ raidIds } = await control.stageRaid(sandbox.guildId, { count: RAIDERS, realJoiners: 5, windowMs: 5 * 60_000 }));
		dataDir = await mkdtemp(join(tmpdir(), 'massnick-kick-run-'));
	});

	afterAll(async () => {
		await sandbox?.close();
		if (dataDir) await rm(dataDir, { recursive: true, force: true });
	});

	it('without --confirm-count, or with another number, nothing runs and it says the number to give', async () => {
		const bare = await run(['masskick', ...aim]);
		expect(bare.code).toBe(REFUSED);
		expect(bare.stderr).toContain('A kick cannot be undone: kicked members must be invited back');
		expect(bare.stderr).toContain(
			`it would change ${RAIDERS} members now (kicked). Nothing ran. Check whom with --dry-run, then run the same command with --confirm-count ${RAIDERS}.`,
		);
		expect(bare.kicks).toEqual([]);
		const wrong = await run(['masskick', ...aim, '--confirm-count', String(RAIDERS - 1)]);
		expect(wrong.code).toBe(REFUSED);
		expect(wrong.stderr).toContain(`--confirm-count ${RAIDERS - 1} does not match: it would change ${RAIDERS} members now`);
		expect(wrong.kicks).toEqual([]);
	});

	it('with the right count it kicks exactly the raid accounts; restore then says the kick cannot be undone', async () => {
		const done = await run(['masskick', ...aim, '--reason', 'raid', '--confirm-count', String(RAIDERS)]);
		expect(done.code).toBe(0);
		expect(new Set(done.kicks.map((request) => request.targetId))).toEqual(new Set(raidIds));
		expect(done.kicks.every((request) => request.status === 204)).toBe(true);
		const left = new Set((await control.members(sandbox.guildId)).map((member) => member.id));
		expect(raidIds.filter((id) => left.has(id))).toEqual([]);

		const restore = await run(['restore']);
		expect(restore.code).toBe(REFUSED);
		expect(restore.stderr).toContain(`Its journal keeps the ${RAIDERS} members it kicked`);
		expect(restore.stderr).toContain('No job before it is left to undo.');
		const past = await run(['restore', '--skip-irreversible']);
		expect(past.code).toBe(REFUSED);
		expect(past.stderr).toContain('There is no journal of a job to undo');
	});
});
