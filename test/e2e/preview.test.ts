import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlInteraction, ControlMessage, SandboxRequest } from '@massnick/discord-sandbox';
import { Journal } from '../../src/jobs/journal/Journal.js';
import type { Job } from '../../src/jobs/Job.js';
import { type Stack, startStack } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const PATCH_MEMBER = (request: SandboxRequest): boolean => request.method === 'PATCH' && request.route === '/guilds/:id/members/:id';
const ROLE_ROUTE = '/guilds/:id/members/:id/roles/:id';
const EPHEMERAL = 64;

type Embed = { title?: string; description?: string };
const embedOf = (message: ControlMessage): Embed => (message.embeds[0] ?? {}) as Embed;
const buttonsOf = (message: ControlMessage): string[] => message.components.flatMap((row) => row.components ?? []).map((button) => button.custom_id ?? '');

/** The first answer to a press: its callback type and, for a reply, its text and flags. */
function answerOf(interaction: ControlInteraction): { type?: number; content?: string; flags?: number } {
	const response = interaction.responses[0]!;
	const data = (response.body as { data?: { content?: string; flags?: number } } | undefined)?.data;
	return { type: response.type, content: data?.content, flags: data?.flags };
}

/** Previews on: every changing command asks first, whatever the guild's size. */
const previewsOn =
	(timeoutSeconds: number) =>
	(config: Stack['config']): Stack['config'] => ({ ...config, preview: { timeoutSeconds, skipBelowMembers: 0 } });

describe('the preview before a changing job', () => {
	let stack: Stack;
	let eventId: string;
	/** A member who may run /massnick, but did not run this preview. */
	let moderatorId: string;

	const message = (id: string): Promise<ControlMessage> => stack.control.message(stack.sandbox.channelId, id);
	const requestsSince = async (seq: number): Promise<SandboxRequest[]> => (await stack.control.requests(seq)).requests;
	const jobEnded = async (previous: Job | undefined): Promise<Job> => {
		await waitUntil(() => stack.massnick.jobs.last !== previous && stack.massnick.jobs.current === undefined, { what: 'the job to end', timeoutMs: 60_000 });
		return stack.massnick.jobs.last!;
	};

	beforeAll(async () => {
		stack = await startStack({ members: 200, workers: 4, settings: previewsOn(60) });
		eventId = (await stack.control.state()).roles.find((role) => role.name === 'Event')!.id;
		const nickManagers = await stack.control.createRole(stack.sandbox.guildId, { name: 'Nick managers', permissions: ['ManageNicknames'] });
		const members = await stack.control.members(stack.sandbox.guildId);
		moderatorId = members.find((member) => !member.bot && member.roles.length === 0 && member.id !== stack.sandbox.ownerId)!.id;
		await stack.control.addMemberRole(stack.sandbox.guildId, moderatorId, nickManagers.id);
	});

	afterAll(async () => {
		await stack?.close();
	});

	it('/massnick shows its member a private preview of what will happen, and sends no member request', async () => {
		const { lastSeq } = await stack.control.requests();
		const preview = await stack.preview('massnick', { name: 'Preview {username}' });
		expect(preview.message.ephemeral).toBe(true);
		expect(preview.message.flags & EPHEMERAL).toBe(EPHEMERAL);
		const { title, description } = embedOf(preview.message);
		expect(title).toContain('Renaming to “Preview {username}”');
		expect(description).toMatch(/for every member/);
		expect(description).toMatch(/in the server · [\d,]+ in scope/);
		expect(description).toMatch(/can't (up to )?[\d,–]+/);
		// Real members of the first page, planned by the job's planner.
		expect(description).toMatch(/The first 100 members listed: \d+ to change/);
		expect(description).toMatch(/• @\S+: .+ → “Preview \S+”/);
		expect(description).toContain(`Audit-log reason: “massnick nickname by`);
		expect(description).toContain('4 workers');
		expect(description).toMatch(/Nothing changes until you press \*\*Start\*\*/);
		expect(preview.start).toMatch(/^preview:\d+:start$/);
		expect(preview.cancel).toMatch(/^preview:\d+:cancel$/);

		expect((await requestsSince(lastSeq)).filter(PATCH_MEMBER)).toEqual([]);
		expect(stack.massnick.jobs.last).toBeUndefined();
		await stack.press(preview.message.id, preview.cancel);
	});

	it('Cancel closes the preview, saying nothing ran, and runs nothing', async () => {
		const { lastSeq } = await stack.control.requests();
		const preview = await stack.preview('massnick', { name: 'Never {username}' });
		const answer = await stack.press(preview.message.id, preview.cancel);
		expect(answer.responses[0]!.type).toBe(7);
		const closed = await message(preview.message.id);
		expect(embedOf(closed).description).toMatch(/Cancelled: nothing ran/);
		expect(closed.components).toEqual([]);
		expect((await requestsSince(lastSeq)).filter(PATCH_MEMBER)).toEqual([]);
		expect(stack.massnick.jobs.last).toBeUndefined();
	});

	it('another member cannot press Start: Discord shows the preview to its member only, and nothing runs', async () => {
		const { lastSeq } = await stack.control.requests();
		const preview = await stack.preview('massnick', { name: 'Theirs {username}' });
		await expect(stack.press(preview.message.id, preview.start, moderatorId)).rejects.toThrow(/ephemeral: only user \d+ sees it/);
		expect((await requestsSince(lastSeq)).filter(PATCH_MEMBER)).toEqual([]);
		expect(stack.massnick.jobs.last).toBeUndefined();
		// Still open for the member who ran it.
		expect(buttonsOf(await message(preview.message.id))).toEqual([preview.start, preview.cancel]);
		await stack.press(preview.message.id, preview.cancel);
	});

	it('a second command replaces the open preview: the old one says so, loses its buttons, and runs nothing', async () => {
		const { lastSeq } = await stack.control.requests();
		const first = await stack.preview('massnick', { name: 'First {username}' });
		const second = await stack.preview('massrole add', { role: eventId });
		await waitUntil(async () => /Replaced by a newer command/.test(embedOf(await message(first.message.id)).description ?? ''), {
			what: 'the first preview to say it was replaced',
		});
		expect((await message(first.message.id)).components).toEqual([]);
		await expect(stack.press(first.message.id, first.start)).rejects.toThrow(/has no component with custom_id/);
		expect(buttonsOf(await message(second.message.id))).toEqual([second.start, second.cancel]);
		await stack.press(second.message.id, second.cancel);
		expect(stack.massnick.jobs.last).toBeUndefined();
		expect((await requestsSince(lastSeq)).filter((request) => PATCH_MEMBER(request) || request.route === ROLE_ROUTE)).toEqual([]);
	});

	it('Start runs the job to the end, with its live status in the channel, and the preview says it started', async () => {
		const preview = await stack.preview('massnick', { name: 'Preview {username}' });
		const { lastSeq } = await stack.control.requests();
		const answer = await stack.press(preview.message.id, preview.start);
		expect(answer.responses[0]!.type).toBe(7);
		const job = await jobEnded(undefined);
		expect(job.result?.state).toBe('finished');
		expect(job.target).toBe('Preview {username}');
		const patches = (await requestsSince(lastSeq)).filter(PATCH_MEMBER);
		expect(patches.length).toBe(job.progress.snapshot().changed);
		expect(patches.length).toBeGreaterThan(100);
		const started = await message(preview.message.id);
		expect(embedOf(started).description).toMatch(/Started: \*\*Renaming to “Preview \{username\}”\*\*/);
		expect(started.components).toEqual([]);
		// The live status: a channel message whose buttons go once the job has ended.
		await waitUntil(
			async () => {
				const live = (await stack.control.messages(stack.sandbox.channelId))
					.filter((m) => !m.ephemeral && /Preview \{username\}/.test(embedOf(m).title ?? ''))
					.at(-1);
				return live !== undefined && /finished/.test(embedOf(live).title ?? '') && live.components.length === 0;
			},
			{ what: 'the live status to show the finished job without buttons' },
		);
	});

	it('a dry run runs at once, without a preview', async () => {
		const previous = stack.massnick.jobs.last;
		const id = await stack.control.invoke(
			stack.sandbox.guildId,
			stack.sandbox.ownerId,
			'massnick',
			{ name: 'Dry {username}', dry_run: true },
			stack.sandbox.channelId,
		);
		const reply = answerOf(await stack.control.waitForResponses(id, 2));
		expect(reply.flags ?? 0).toBe(0);
		const job = await jobEnded(previous);
		expect(job.dryRun).toBe(true);
	});

	it('/massrole add previews who gets the role, sends nothing until Start, and Start runs it', async () => {
		const members = await stack.control.members(stack.sandbox.guildId);
		const ourBots = new Set([stack.massnick.boss.client.user!.id, ...stack.massnick.fleet.workers.map((worker) => worker.client.user!.id)]);
		const lacking = members.filter((member) => !ourBots.has(member.id) && !member.roles.includes(eventId)).length;
		const { lastSeq } = await stack.control.requests();
		const preview = await stack.preview('massrole add', { role: eventId });
		const { title, description } = embedOf(preview.message);
		expect(title).toContain('Adding @Event');
		// Without filters, Discord's role count makes it exact.
		expect(description).toContain(`Will change **${lacking.toLocaleString('en-US')}**`);
		expect(description).toMatch(/• @\S+ gets @Event/);
		expect((await requestsSince(lastSeq)).filter((request) => request.route === ROLE_ROUTE)).toEqual([]);

		const previous = stack.massnick.jobs.last;
		await stack.press(preview.message.id, preview.start);
		const job = await jobEnded(previous);
		expect(job.result?.state).toBe('finished');
		const puts = (await requestsSince(lastSeq)).filter((request) => request.route === ROLE_ROUTE && request.method === 'PUT');
		expect(puts).toHaveLength(lacking);
	});

	it('/restore previews which job it undoes and how many it gives back, sends nothing until Start, and Start runs it', async () => {
		const given = stack.massnick.jobs.last!.progress.snapshot().changed;
		const { lastSeq } = await stack.control.requests();
		const preview = await stack.preview('restore');
		const { title, description } = embedOf(preview.message);
		expect(title).toContain('Taking @Event back from the members who got it');
		expect(description).toMatch(/It undoes \*\*Adding @Event\*\*, started by \S+/);
		expect(description).toContain(`Will change **up to ${given.toLocaleString('en-US')}**`);
		expect(description).toMatch(/• @\S+ loses @Event/);
		expect((await requestsSince(lastSeq)).filter((request) => request.route === ROLE_ROUTE)).toEqual([]);

		const previous = stack.massnick.jobs.last;
		await stack.press(preview.message.id, preview.start);
		const job = await jobEnded(previous);
		expect(job.mode).toBe('restore');
		expect(job.result?.state).toBe('finished');
		const deletes = (await requestsSince(lastSeq)).filter((request) => request.route === ROLE_ROUTE && request.method === 'DELETE');
		expect(deletes).toHaveLength(given);
	});
});

describe('a preview nobody answers', () => {
	let stack: Stack;

	beforeAll(async () => {
		stack = await startStack({ members: 120, workers: 2, settings: previewsOn(1) });
	});

	afterAll(async () => {
		await stack?.close();
	});

	it('expires: its message says so and loses its buttons, and nothing runs', async () => {
		const { lastSeq } = await stack.control.requests();
		const preview = await stack.preview('massnick', { name: 'Late {username}' });
		await waitUntil(
			async () =>
				/Expired: nobody pressed Start in time, so nothing ran/.test(
					embedOf(await stack.control.message(stack.sandbox.channelId, preview.message.id)).description ?? '',
				),
			{
				what: 'the preview to say it expired',
				timeoutMs: 15_000,
			},
		);
		expect((await stack.control.message(stack.sandbox.channelId, preview.message.id)).components).toEqual([]);
		await expect(stack.press(preview.message.id, preview.start)).rejects.toThrow(/has no component with custom_id/);
		expect((await stack.control.requests(lastSeq)).requests.filter(PATCH_MEMBER)).toEqual([]);
		expect(stack.massnick.jobs.last).toBeUndefined();
	});
});

describe('the live status buttons', () => {
	let stack: Stack;
	let plainId: string;
	let job: Job;
	let live: ControlMessage;
	/** Members renamed before the cancel, from the request log. */
	let renamedFirst: Set<string>;
	let startSeq: number;

	const liveMessage = async (): Promise<ControlMessage> => stack.control.message(stack.sandbox.channelId, live.id);

	beforeAll(async () => {
		// Slow enough (20 renames a second per worker) that a job of 600 runs for seconds.
		stack = await startStack({ members: 600, workers: 4, timeScale: 20, settings: previewsOn(60) });
		const members = await stack.control.members(stack.sandbox.guildId);
		plainId = members.find((member) => !member.bot && member.roles.length === 0 && member.id !== stack.sandbox.ownerId)!.id;
		startSeq = (await stack.control.requests()).lastSeq;
		const preview = await stack.preview('massnick', { name: 'Live {username}' });
		await stack.press(preview.message.id, preview.start);
		await waitUntil(() => stack.massnick.jobs.current !== undefined, { what: 'the job to start' });
		job = stack.massnick.jobs.current!;
		await waitUntil(
			async () => {
				const found = (await stack.control.messages(stack.sandbox.channelId)).find((m) => !m.ephemeral && buttonsOf(m).some((id) => id.startsWith('status:')));
				if (found) live = found;
				return found !== undefined;
			},
			{ what: 'the live status with its buttons' },
		);
	});

	afterAll(async () => {
		await stack?.close();
	});

	it('has Cancel and Refresh while the job runs, each refused privately to a member without Manage Nicknames', async () => {
		const [cancel, refresh] = buttonsOf(live);
		expect(cancel).toMatch(/^status:[^:]+:cancel$/);
		expect(refresh).toMatch(/^status:[^:]+:refresh$/);
		for (const button of [cancel!, refresh!]) {
			const refusal = answerOf(await stack.press(live.id, button, plainId));
			expect(refusal.type).toBe(4);
			expect(refusal.flags! & EPHEMERAL).toBe(EPHEMERAL);
			expect(refusal.content).toMatch(/Manage Nicknames/);
		}
		expect(job.result).toBeUndefined();
	});

	it('Refresh re-renders the status in place at once', async () => {
		const before = await liveMessage();
		const answer = await stack.press(live.id, buttonsOf(live)[1]!);
		expect(answer.responses[0]!.type).toBe(7);
		const after = await liveMessage();
		expect(after.edits).toBeGreaterThan(before.edits);
		expect(buttonsOf(after)).toEqual(buttonsOf(live));
	});

	it('Cancel asks first, privately, then stops the job as /cancel does; the journal says cancelled and a rerun continues', async () => {
		await waitUntil(() => job.progress.snapshot().changed > 0, { what: 'the first renames' });
		const ask = await stack.press(live.id, buttonsOf(live)[0]!);
		const question = answerOf(ask);
		expect(question.flags! & EPHEMERAL).toBe(EPHEMERAL);
		expect(question.content).toMatch(/^Cancel \*\*Renaming to “Live \{username\}”\*\*\?/);
		// Asking stops nothing.
		expect(job.result).toBeUndefined();
		const confirmation = await stack.control.message(stack.sandbox.channelId, ask.originalMessageId!);
		expect(confirmation.ephemeral).toBe(true);
		const [yes] = buttonsOf(confirmation);
		expect(yes).toBe(`${buttonsOf(live)[0]!.replace(/:cancel$/, ':confirm')}:${stack.sandbox.ownerId}`);

		const confirmed = await stack.press(confirmation.id, yes!);
		expect(confirmed.responses[0]!.type).toBe(7);
		expect((await stack.control.message(stack.sandbox.channelId, confirmation.id)).content).toMatch(
			/^Cancelling \*\*Renaming to “Live \{username\}”\*\*: no new request goes out/,
		);
		const result = await job.ended();
		expect(result.state).toBe('cancelled');
		const { changed, total } = job.progress.snapshot();
		expect(changed).toBeLessThan(total);
		await waitUntil(() => stack.massnick.jobs.current === undefined, { what: 'the slot to free' });
		await waitUntil(
			async () =>
				(await Journal.list(stack.dataDir, stack.sandbox.guildId)).some((summary) => summary.header.jobId === job.id && summary.state === 'cancelled'),
			{
				what: 'the journal to be marked cancelled',
			},
		);
		await waitUntil(async () => (await liveMessage()).components.length === 0, { what: 'the live status to lose its buttons' });
		expect(embedOf(await liveMessage()).title).toMatch(/cancelled/);

		const firstRun = (await stack.control.requests(startSeq)).requests.filter((request) => PATCH_MEMBER(request) && request.status === 200);
		renamedFirst = new Set(firstRun.map((request) => request.targetId!));
		const { lastSeq } = await stack.control.requests();
		const rerun = await stack.preview('massnick', { name: 'Live {username}' });
		await stack.press(rerun.message.id, rerun.start);
		await waitUntil(() => stack.massnick.jobs.last !== job && stack.massnick.jobs.current === undefined, { what: 'the rerun to end', timeoutMs: 60_000 });
		const second = stack.massnick.jobs.last!;
		expect(second.result?.state).toBe('finished');
		expect(second.id).toBe(job.id);
		// The rerun sends nothing for a member the cancelled run renamed.
		const again = (await stack.control.requests(lastSeq)).requests.filter(PATCH_MEMBER);
		expect(again.length).toBeGreaterThan(0);
		for (const request of again) expect(renamedFirst.has(request.targetId!)).toBe(false);
		expect(second.progress.snapshot().alreadyDone).toBeGreaterThanOrEqual(renamedFirst.size);
	});

	it("/restore's preview counts every run the journal holds, not only the last one's status line", async () => {
		const rerun = stack.massnick.jobs.last!;
		const preview = await stack.preview('restore');
		const count = /Will change \*\*up to ([\d,]+)\*\*/.exec(embedOf(preview.message).description ?? '')?.[1];
		expect(count).toBeDefined();
		const journaled = Number(count!.replace(/,/g, ''));
		// The cancelled run's renames and the rerun's are both in it.
		expect(journaled).toBeGreaterThanOrEqual(renamedFirst.size + rerun.progress.snapshot().changed);
		expect(journaled).toBeGreaterThan(rerun.progress.snapshot().changed);
		await stack.press(preview.message.id, preview.cancel);
	});
});
