import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

/** Previews on: the command shows a preview, and Start starts the job. */
const previewsOn = (config: Stack['config']): Stack['config'] => ({ ...config, preview: { timeoutSeconds: 60, skipBelowMembers: 0 } });

const ENGINE = ['workers-present', 'one-job-at-a-time', 'requester-permission', 'requester-rank', 'workers-permission'];

/** How often each precondition was checked. */
function tally(names: readonly string[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const name of names) counts[name] = (counts[name] ?? 0) + 1;
	return counts;
}

describe('one admission path, end to end', () => {
	let stack: Stack;
	let eventId: string;

	beforeAll(async () => {
		stack = await startStack({ members: 120, workers: 2, settings: previewsOn });
		eventId = (await stack.control.state()).roles.find((role) => role.name === 'Event')!.id;
	});

	afterAll(async () => {
		await stack?.close();
	});

	it('one /massrole checks each precondition once at the command and once at Start', async () => {
		const seen: string[] = [];
		const unobserve = stack.massnick.jobs.admission.observe((name) => seen.push(name));
		try {
			const preview = await stack.preview('massrole add', { role: eventId });
			expect(tally(seen)).toEqual(Object.fromEntries(ENGINE.map((name) => [name, 1])));
			expect(seen).toEqual(ENGINE);

			const previous = stack.massnick.jobs.last;
			await stack.press(preview.message.id, preview.start);
			await waitUntil(() => stack.massnick.jobs.last !== previous && stack.massnick.jobs.current === undefined, { what: 'the job to end', timeoutMs: 60_000 });
			expect(stack.massnick.jobs.last?.result?.state).toBe('finished');
			expect(tally(seen)).toEqual(Object.fromEntries(ENGINE.map((name) => [name, 2])));
		} finally {
			unobserve();
		}
	});

	it('a member without Manage Roles is refused by the requester-permission precondition, naming it, and nothing starts', async () => {
		const members = await stack.control.members(stack.sandbox.guildId);
		const nickManagers = await stack.control.createRole(stack.sandbox.guildId, { name: 'Nick only', permissions: ['ManageNicknames'] });
		const someone = members.find((member) => !member.bot && member.id !== stack.sandbox.ownerId)!;
		await stack.control.addMemberRole(stack.sandbox.guildId, someone.id, nickManagers.id);
		// /restore is open to Manage Nicknames, but taking @Event back is a role change: it needs Manage Roles.
		const previous = stack.massnick.jobs.last;
		const id = await stack.control.invoke(stack.sandbox.guildId, someone.id, 'restore', {}, stack.sandbox.channelId);
		const answers = await stack.control.waitForResponses(id, 2);
		const text = JSON.stringify(answers.responses.map((response) => response.body));
		expect(text).toContain('needs the Manage Roles permission');
		expect(stack.massnick.jobs.last).toBe(previous);
	});
});
