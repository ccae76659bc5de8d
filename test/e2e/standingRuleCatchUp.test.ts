import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxControl, startSandbox } from '@massnick/discord-sandbox';
import { afterEach, describe, expect, it } from 'vitest';
import type { Job } from '../../src/jobs/Job.js';
import { reportFigures } from '../support/reportFigures.js';
import { type Sandbox, type Stack, startMassnickOn } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const MEMBERS = 3_000;
/** The most a listing hands out at once: one page can be on its way when the sweep starts. */
const PAGE = 1_000;

/**
 * A rule resumed after a restart catches up at low priority: its sweep takes no place of the
 * sweep's, so a job runs beside it (here a rename the restart resumed too); its listing waits
 * while that job runs, and the joiners
 * meanwhile are given the role at once, not left for the listing to reach; once the job ends the
 * catch-up goes on and finds who joined while massnick was down.
 */
describe("a standing rule's catch-up after a restart", () => {
	let sandbox: Sandbox | undefined;
	let stack: Stack | undefined;
	let dataDir = '';

	afterEach(async () => {
		await stack?.close();
		await sandbox?.close();
		if (dataDir) await rm(dataDir, { recursive: true, force: true });
	});

	it('lets a job run beside it, waits for it, and takes joiners at once meanwhile', async () => {
		sandbox = await startSandbox({ members: MEMBERS, workers: 4, seed: 11, timeScale: 100 });
		dataDir = await mkdtemp(join(tmpdir(), 'massnick-catchup-'));
		const { guildId } = sandbox;
		const control = new SandboxControl(sandbox.controlUrl);
		const role = (await control.createRole(guildId, { name: 'Newcomer', position: 1 })).id;
		const holds = async (ids: readonly string[]): Promise<boolean> => {
			const members = await control.members(guildId);
			return ids.every((id) => members.find((member) => member.id === id)?.roles.includes(role));
		};
		const settings = (config: Stack['config']) => ({ ...config, preview: { timeoutSeconds: 60, skipBelowMembers: 0 } });

		stack = await startMassnickOn(sandbox, dataDir, sandbox.workerTokens, settings);
		const first = stack;
		const preview = await first.preview('massrole add', { role, keep: true });
		await first.press(preview.message.id, preview.start);
		await waitUntil(() => first.massnick.jobs.rules.all.some((rule) => rule.following), { what: 'the rule to follow joins', timeoutMs: 120_000 });
		// A job under way when massnick stops: the restart resumes it first, in the sweep's place.
		const rename = await first.preview('massnick', { name: 'Renamed {username}' });
		await first.press(rename.message.id, rename.start);
		await waitUntil(() => (first.massnick.jobs.current?.progress.snapshot().done ?? 0) >= 300, { what: 'the rename under way', timeoutMs: 60_000 });
		await first.close();
		stack = undefined;

		const { ids: whileDown } = await control.addMembers(guildId, 20);
		stack = await startMassnickOn(sandbox, dataDir, sandbox.workerTokens, settings);
		const second = stack;
		await second.massnick.resume();
		let rule: Job | undefined;
		let sweep: Job | undefined;
		await waitUntil(
			() => {
				rule = second.massnick.jobs.rules.all[0];
				sweep = second.massnick.jobs.current;
				return rule !== undefined && sweep !== undefined && sweep !== rule;
			},
			{ what: 'the rename and the rule to resume', timeoutMs: 60_000 },
		);
		// The rule's catch-up holds no sweep's place: the rename has it.
		expect(sweep!.keep).toBeUndefined();
		expect(second.massnick.jobs.rules.all).toEqual([rule]);
		expect(rule!.listingDone).toBe(false);
		const listedAtStart = rule!.progress.snapshot().total;

		const { ids: meanwhile } = await control.addMembers(guildId, 10);
		await waitUntil(() => holds(meanwhile), { what: 'the joiners during the job to get the role', timeoutMs: 60_000 });
		const stillRunning = sweep!.result === undefined;
		const caughtUpMeanwhile = rule!.listingDone;
		const listedMeanwhile = rule!.progress.snapshot().total - listedAtStart;
		expect(stillRunning).toBe(true);
		expect(caughtUpMeanwhile).toBe(false);

		expect((await sweep!.ended()).state).toBe('finished');
		const listedDuringSweep = rule!.progress.snapshot().total - listedAtStart;
		// The page on its way when the job started, and the joiners taken at once; no more.
		expect(listedDuringSweep).toBeLessThanOrEqual(PAGE + meanwhile.length);

		await waitUntil(() => holds(whileDown), { what: 'the joiners while down to be caught up after the job', timeoutMs: 120_000 });
		await waitUntil(() => rule!.following, { what: 'the rule to follow joins again' });
		reportFigures('standing rule catch-up at low priority', {
			members: MEMBERS,
			listedAtStart,
			listedMeanwhile,
			listedDuringSweep,
			whileDown: whileDown.length,
		});
	}, 240_000);
});
