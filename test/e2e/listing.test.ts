import { afterEach, describe, expect, it } from 'vitest';
import { type Stack, startStack } from '../support/startStack.js';

const LIST_ROUTE = '/guilds/:id/members';

/** Which bot user sent each page request of a job, by the name massnick gives it. */
async function listedBy(stack: Stack, command: string, options: Record<string, unknown>): Promise<Map<string, number>> {
	const names = new Map<string, string>([[stack.massnick.boss.client.user!.id, 'the boss']]);
	for (const worker of stack.massnick.fleet.workers) names.set(worker.client.user!.id, worker.label);
	const { lastSeq } = await stack.control.requests();
	const job = await stack.runJob(command, options);
	expect(job.result?.state).toBe('finished');
	const { requests } = await stack.control.requests(lastSeq);
	const pages = requests.filter((request) => request.method === 'GET' && request.route === LIST_ROUTE);
	expect(pages.every((page) => page.status === 200)).toBe(true);
	const counts = new Map<string, number>();
	for (const page of pages) {
		const name = names.get(page.botUserId!) ?? `unknown ${page.botUserId}`;
		counts.set(name, (counts.get(name) ?? 0) + 1);
	}
	return counts;
}

describe('who lists the members', () => {
	let stack: Stack | undefined;

	afterEach(async () => {
		await stack?.close();
		stack = undefined;
	});

	it('with the members intent on the boss alone, the workers start and the boss lists every page', async () => {
		stack = await startStack({ members: 2500, workers: 3 });
		const apps = (await stack.control.state()).apps;
		expect(apps.filter((app) => app.membersIntent).map((app) => app.id)).toEqual([stack.massnick.boss.client.user!.id]);
		expect(stack.massnick.fleet.workers.map((worker) => [worker.state, worker.listsMembers])).toEqual([
			['ready', false],
			['ready', false],
			['ready', false],
		]);

		const counts = await listedBy(stack, 'massnick', { name: 'Solo {username}', dry_run: true });
		expect([...counts.keys()]).toEqual(['the boss']);
		// 2,500 generated members and the four bots: three full pages and a short one.
		expect(counts.get('the boss')).toBe(3);
	});

	it('workers whose application has the intent too take turns listing with the boss', async () => {
		stack = await startStack({ members: 2500, workers: 3, workerMembersIntent: true });
		expect(stack.massnick.fleet.workers.every((worker) => worker.listsMembers)).toBe(true);

		const counts = await listedBy(stack, 'massnick', { name: 'Shared {username}', dry_run: true });
		expect(new Set(counts.keys())).toEqual(new Set(['the boss', 'worker 0', 'worker 1']));
		expect([...counts.values()].every((pages) => pages === 1)).toBe(true);
	});
});
