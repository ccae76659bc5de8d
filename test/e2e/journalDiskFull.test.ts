import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renamableMembers, type Sandbox, SandboxControl, startSandbox } from '@massnick/discord-sandbox';
import { RunExitCodes } from '../../src/cli/runOutcome.js';
import { journalLines } from '../support/journalLines.js';
import { reportFigures } from '../support/reportFigures.js';
import { memberPatches } from '../../bench/soak/invariants.js';
import { startRun } from '../support/spawnRun.js';

/** How large the kernel lets the run's files grow, in KiB (`ulimit -f`): the journal fills it mid-job. */
const FILE_LIMIT_KIB = 12;

/**
 * The disk holding the journal fills up mid-job. The kernel refuses the write (a real failure at
 * the filesystem boundary: `ulimit -f` makes every file of the process stop at a size, and Node
 * gets EFBIG, as a full disk gives ENOSPC), so the journal cannot keep up: the run must stop with
 * an error naming the folder and what to do, send no change whose original is not on disk, and
 * a rerun once there is room must finish the job.
 */
describe('the journal’s disk fills up during massnick run', () => {
	let sandbox: Sandbox;
	let control: SandboxControl;
	let dataDir: string;

	beforeAll(async () => {
		sandbox = await startSandbox({ members: 400, workers: 3, seed: 53, timeScale: 50 });
		control = new SandboxControl(sandbox.controlUrl);
		dataDir = await mkdtemp(join(tmpdir(), 'massnick-diskfull-'));
	});

	afterAll(async () => {
		await sandbox?.close();
		await rm(dataDir, { recursive: true, force: true });
	});

	/** `massnick run massnick` from src, its files limited to `limitKib` (none when undefined). */
	const run = async (limitKib: number | undefined): Promise<{ code: number | string; stderr: string; stdout: string }> => {
		// tsx's cache of compiled files would meet the same limit; the bot's own files are what is tried.
		const cli = startRun(
			sandbox,
			dataDir,
			['massnick', '--name', 'Full {id}'],
			{ TSX_DISABLE_CACHE: '1' },
			limitKib === undefined ? {} : { fileSizeLimitKiB: limitKib },
		);
		const code = await cli.exited;
		return { code, stdout: cli.stdout(), stderr: cli.stderr() };
	};

	it('stops with an error naming the folder, sends no change before its original is on disk, and a rerun with room finishes', async () => {
		const everyone = renamableMembers(sandbox);
		const { lastSeq } = await control.requests();
		const full = await run(FILE_LIMIT_KIB);
		expect(full.code, full.stderr).toBe(RunExitCodes.NotDone);
		expect(full.stderr).toMatch(/Writing the journal .+\.jsonl failed \(EFBIG\), so the job stopped: no member is changed without their original on disk\./);
		expect(full.stderr).toContain(join(dataDir, sandbox.guildId));
		expect(full.stderr).toContain('then run the same command again');

		// Every rename that went out has its original in the journal, written before it.
		const journaled = new Set((await journalLines(dataDir, sandbox.guildId)).filter((line) => line.type === 'original').map((line) => line.id as string));
		const sent = memberPatches((await control.requests(lastSeq)).requests).map((request) => request.targetId!);
		expect(sent.length).toBeGreaterThan(0);
		expect(sent.length).toBeLessThan(everyone.length);
		expect(sent.filter((id) => !journaled.has(id))).toEqual([]);

		// Room again: the same command finishes what is left, and the journal holds every original.
		const rerunFrom = (await control.requests()).lastSeq;
		const rerun = await run(undefined);
		const finishedByRerun = memberPatches((await control.requests(rerunFrom)).requests).length;
		expect(rerun.code, rerun.stderr).toBe(RunExitCodes.Done);
		const renamed = new Set((await control.members(sandbox.guildId)).filter((member) => member.nick === `Full ${member.id}`).map((member) => member.id));
		expect(everyone.filter((id) => !renamed.has(id))).toEqual([]);
		const originals = new Set((await journalLines(dataDir, sandbox.guildId)).filter((line) => line.type === 'original').map((line) => line.id as string));
		expect(everyone.filter((id) => !originals.has(id))).toEqual([]);
		reportFigures('journal disk full', {
			fileLimitKiB: FILE_LIMIT_KIB,
			sentBeforeStop: sent.length,
			unjournaled: 0,
			finishedByRerun,
			lost: 0,
		});
	}, 120_000);
});
