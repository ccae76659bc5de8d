import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { SandboxControl, startSandbox } from '@massnick/discord-sandbox';
import { parseNicknameAction } from '../../src/actions/nickname/parseNicknameAction.js';
import { loadConfig } from '../../src/config/loadConfig.js';
import { MEMBER_PAGE_SIZE } from '../../src/jobs/listMembers.js';
import type { Boss } from '../../src/boss/Boss.js';
import { type Massnick, startMassnick } from '../../src/startMassnick.js';
import { reportFigures } from '../support/reportFigures.js';
import type { Sandbox } from '../support/startStack.js';

const PODS = 6;
const LIST_ROUTE = '/guilds/:id/members';

/**
 * A fleet whose pods all list with the one LISTER_TOKEN, each holding one worker, as the
 * Kubernetes Indexed Job runs them. Each pod here is a `startMassnick` of its own (its own
 * discord.js clients, knowing nothing of the others'), in one test process. Each counts the
 * whole guild at once: a count lists as fast as the listing may, so the pods ask the token for
 * far more pages than it allows, the case where pods on one token used to earn 429s.
 */
describe('pods sharing one LISTER_TOKEN', () => {
	let sandbox: Sandbox | undefined;
	const pods: Massnick<undefined | Boss>[] = [];
	let dataDir = '';

	afterAll(async () => {
		await Promise.allSettled(pods.map((pod) => pod.stop()));
		await sandbox?.close();
		if (dataDir) await rm(dataDir, { recursive: true, force: true });
	});

	it("take turns by their workers' slots: every pod lists the whole guild and the token earns no 429", async () => {
		sandbox = await startSandbox({ members: 8000, workers: PODS, seed: 41, timeScale: 50 });
		const control = new SandboxControl(sandbox.controlUrl);
		dataDir = await mkdtemp(join(tmpdir(), 'massnick-shared-lister-'));
		for (let index = 0; index < PODS; index++) {
			const config = loadConfig({
				env: {
					WORKER_TOKENS: sandbox.workerTokens.join(','),
					WORKER_COUNT: String(PODS),
					JOB_COMPLETION_INDEX: String(index),
					LISTER_TOKEN: sandbox.bossToken,
					GUILD_ID: sandbox.guildId,
					DISCORD_API_URL: sandbox.apiUrl,
					MASSNICK_DATA_DIR: join(dataDir, `pod-${index}`),
				},
				configDir: 'test/support/config',
				dotenvPath: false,
			});
			pods.push(await startMassnick(config, pino({ level: 'silent' }), { boss: false }));
		}
		const { lastSeq } = await control.requests(0, 1);
		const startedBy = { id: '0', tag: 'shared-lister-test' };
		const counts = pods.map((pod) => pod.jobs.count(parseNicknameAction('Shared {id}', 32), startedBy));
		const results = await Promise.all(counts.map((count) => count.ended()));
		expect(results.map((result) => result.state)).toEqual(counts.map(() => 'finished'));

		const members = (await control.members(sandbox.guildId)).length;
		const pagesEach = Math.floor(members / MEMBER_PAGE_SIZE) + 1;
		// Every pod counted every member: none was starved of its pages.
		for (const count of counts) expect(count.progress.snapshot().total).toBe(members);
		const listing = (await control.requests(lastSeq)).requests.filter((request) => request.route === LIST_ROUTE && request.method === 'GET');
		expect(listing.filter((request) => request.status === 200)).toHaveLength(PODS * pagesEach);
		expect(listing.filter((request) => request.status === 429)).toEqual([]);
		const first = listing[0]!.at;
		const seconds = (listing.at(-1)!.at - first) / 1000;
		reportFigures('pods sharing one LISTER_TOKEN', { pods: PODS, pages: listing.length, pagesPerSecond: Math.round((listing.length / seconds) * 10) / 10 });
	});
});
