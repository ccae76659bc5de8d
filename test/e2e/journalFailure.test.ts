import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Job } from '../../src/jobs/Job.js';
import { planMember } from '../../src/jobs/planner.js';
import type { PendingChange } from '../../src/jobs/runSlice.js';
import { NicknameAction } from '../../src/actions/nickname/NicknameAction.js';
import { parseTemplate } from '../../src/actions/shared/nicknameEdits/index.js';
import { type Stack, startStack } from '../support/startStack.js';

/**
 * The journal is the one thing a rename may not outrun: when the disk refuses an original, that
 * member must not be renamed, and the job must stop cleanly rather than hang or crash.
 */
describe('a journal that stops accepting writes', () => {
	let stack: Stack;

	beforeAll(async () => {
		stack = await startStack({ members: 300, workers: 3, timeScale: 20 });
	});

	afterAll(async () => {
		await stack?.close();
	});

	it('fails the job, renames nobody whose original was refused, and leaves the process running', async () => {
		const journaled = new Set<string>();
		let calls = 0;
		const beforeChange = async (changes: PendingChange[]): Promise<void> => {
			if (++calls > 20) throw new Error('ENOSPC: no space left on device');
			for (const change of changes) journaled.add(change.id);
		};
		const action = new NicknameAction(parseTemplate('Disk {username}'));
		const context = stack.massnick.boss.guildContext();
		const { lastSeq } = await stack.control.requests();
		const job = new Job({
			id: 'journal-failure',
			action,
			mode: 'apply',
			dryRun: false,
			startedBy: { id: stack.sandbox.ownerId, tag: 'owner' },
			fleet: stack.massnick.fleet,
			listers: stack.massnick.listers(),
			guildId: stack.sandbox.guildId,
			plan: (member) => planMember(member, action, {}, context),
			beforeChange,
			reason: 'test',
			maxInFlight: 10,
			retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 50 },
			logger: stack.massnick.boss.logger,
		});
		const result = await job.run();
		expect(result.state).toBe('failed');
		expect(result.error?.message).toContain('ENOSPC');
		const { requests } = await stack.control.requests(lastSeq);
		const renamed = requests.filter((request) => request.method === 'PATCH' && request.route === '/guilds/:id/members/:id');
		expect(renamed.length).toBeGreaterThan(0);
		for (const request of renamed) expect(journaled.has(request.targetId!), request.targetId!).toBe(true);
		expect(job.progress.snapshot().failedByReason['journal-write']).toBeGreaterThan(0);
		// The bot is still up and answers the next command.
		const id = await stack.control.invoke(stack.sandbox.guildId, stack.sandbox.ownerId, 'shards', {}, stack.sandbox.channelId);
		expect((await stack.control.waitForResponses(id, 1)).responses.length).toBe(1);
	});
});
