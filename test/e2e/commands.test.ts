import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlInteraction, ControlMember } from '@massnick/discord-sandbox';
import { type Stack, startStack } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

function replyOf(interaction: ControlInteraction, index = 0): { content?: string; flags?: number; embeds?: Array<{ description?: string; title?: string }> } {
	const response = interaction.responses[index]!;
	const body = response.body as { data?: Record<string, unknown> } & Record<string, unknown>;
	return (body.data ?? body) as never;
}

describe('the boss commands', () => {
	let stack: Stack;
	let roles: Map<string, string>;
	let members: ControlMember[];

	beforeAll(async () => {
		stack = await startStack({ members: 500, workers: 4, timeScale: 20 });
		roles = new Map((await stack.control.state()).roles.map((role) => [role.name, role.id]));
		members = await stack.control.members(stack.sandbox.guildId);
	});

	afterAll(async () => {
		await stack?.close();
	});

	it('a staged rollout renames only the role given, and exclude_role leaves a role alone', async () => {
		const staff = roles.get('Staff')!;
		const member = roles.get('Member')!;
		const staged = await stack.runJob('massnick', { name: 'Stage {username}', role: staff });
		expect(staged.result?.state).toBe('finished');
		const afterStaff = await stack.control.members(stack.sandbox.guildId);
		const stagedIds = afterStaff.filter((m) => m.nick?.startsWith('Stage ')).map((m) => m.id);
		expect(stagedIds.length).toBeGreaterThan(0);
		for (const id of stagedIds) expect(afterStaff.find((m) => m.id === id)!.roles).toContain(staff);

		const excluded = await stack.runJob('massnick', { name: 'Stage {username}', role: member, exclude_role: staff });
		expect(excluded.result?.state).toBe('finished');
		const after = await stack.control.members(stack.sandbox.guildId);
		for (const m of after) {
			if (m.nick?.startsWith('Stage ')) expect(m.roles).toContain(member);
		}
		// Staff members kept the name from the first stage; nobody outside Member got it.
		const restore = await stack.runJob('restore');
		expect(restore.result?.state).toBe('finished');
		const restored = await stack.control.members(stack.sandbox.guildId);
		const original = new Map(members.map((m) => [m.id, m.nick]));
		for (const m of restored) expect(m.nick, m.id).toBe(original.get(m.id) ?? null);
	});

	it('every rename carries an audit-log reason naming who ran the job', async () => {
		const log = await stack.control.auditLog(stack.sandbox.guildId);
		const byBots = log.audit_log_entries.filter((entry) => entry.reason?.startsWith('massnick'));
		expect(byBots.length).toBeGreaterThan(0);
		for (const entry of byBots) expect(entry.reason).toContain(stack.sandbox.ownerId);
	});

	it('a second /massnick while one runs gets a clear answer and starts nothing', async () => {
		const first = await stack.control.invoke(stack.sandbox.guildId, stack.sandbox.ownerId, 'massnick', { name: 'Busy {username}' }, stack.sandbox.channelId);
		await stack.control.waitForResponses(first, 1);
		await waitUntil(() => stack.massnick.jobs.current !== undefined);
		const running = stack.massnick.jobs.current!;
		const second = await stack.control.invoke(stack.sandbox.guildId, stack.sandbox.ownerId, 'massnick', { name: 'Other' }, stack.sandbox.channelId);
		const reply = replyOf(await stack.control.waitForResponses(second, 1));
		expect(reply.content).toMatch(/already running/);
		expect(reply.flags! & 64).toBe(64);
		expect(stack.massnick.jobs.current).toBe(running);
		await waitUntil(() => stack.massnick.jobs.current === undefined, { timeoutMs: 30_000 });
		expect(running.target).toBe('Busy {username}');
	});

	it('/status posts one channel message that edits itself while the job runs', async () => {
		await stack.runJob('restore');
		const before = await stack.control.messages(stack.sandbox.channelId);
		const id = await stack.control.invoke(stack.sandbox.guildId, stack.sandbox.ownerId, 'massnick', { name: 'Live {username}' }, stack.sandbox.channelId);
		await stack.control.waitForResponses(id, 1);
		await waitUntil(() => stack.massnick.jobs.current !== undefined);
		const status = await stack.control.invoke(stack.sandbox.guildId, stack.sandbox.ownerId, 'status', {}, stack.sandbox.channelId);
		await stack.control.waitForResponses(status, 1);
		await waitUntil(() => stack.massnick.jobs.current === undefined, { timeoutMs: 30_000 });
		type Posted = { id: string; edits?: number; embeds: Array<{ title?: string; description?: string }> };
		const posted = async (): Promise<Posted[]> => ((await stack.control.messages(stack.sandbox.channelId)) as Posted[]).slice(before.length);
		// The status message's last edit, to the finished job, follows the job's end.
		await waitUntil(async () => /finished/.test((await posted()).at(-1)?.embeds[0]?.title ?? ''), { what: 'the status message to show the finished job' });
		const messages = await posted();
		expect(messages.length).toBeGreaterThanOrEqual(1);
		const live = messages.at(-1)!;
		expect(live.edits ?? 0).toBeGreaterThanOrEqual(1);
		expect(live.embeds[0]?.title).toMatch(/finished/);
		expect(live.embeds[0]?.description).toMatch(/100%/);
	});

	it('/stats counts members at the name from the live guild, and /shards lists every worker', async () => {
		const stats = await stack.control.invoke(stack.sandbox.guildId, stack.sandbox.ownerId, 'stats', { name: 'Live {username}' }, stack.sandbox.channelId);
		const reply = replyOf(await stack.control.waitForResponses(stats, 2), 1);
		const named = (await stack.control.members(stack.sandbox.guildId)).filter((m) => m.nick === `Live ${m.username}`).length;
		expect(reply.content).toContain(`**${named.toLocaleString('en-US')}**`);

		const shards = await stack.control.invoke(stack.sandbox.guildId, stack.sandbox.ownerId, 'shards', {}, stack.sandbox.channelId);
		const table = replyOf(await stack.control.waitForResponses(shards, 1)).content!;
		for (let index = 0; index < 4; index++) expect(table).toMatch(new RegExp(`\\n\\s+${index}\\s+[\\d,]+\\s`));
		expect(table).toContain('ready');
	});

	it('/restore with no journal left clears the name where it is set, and says so', async () => {
		await rm(join(stack.dataDir, stack.sandbox.guildId), { recursive: true, force: true });
		const previous = stack.massnick.jobs.last;
		const id = await stack.control.invoke(stack.sandbox.guildId, stack.sandbox.ownerId, 'restore', { name: 'Live {username}' }, stack.sandbox.channelId);
		const interaction = await stack.control.waitForResponses(id, 2);
		expect(replyOf(interaction, 1).content).toMatch(/No journal/);
		await waitUntil(() => stack.massnick.jobs.last !== previous && stack.massnick.jobs.current === undefined, { timeoutMs: 30_000 });
		const job = stack.massnick.jobs.last!;
		expect(job.action.type).toBe('nickname-clear');
		expect(job.result?.state).toBe('finished');
		const after = await stack.control.members(stack.sandbox.guildId);
		expect(after.filter((m) => m.nick === `Live ${m.username}`).length).toBe(job.progress.snapshot().cant);
	});

	it('/restore with no journal and no name explains what to do', async () => {
		const id = await stack.control.invoke(stack.sandbox.guildId, stack.sandbox.ownerId, 'restore', {}, stack.sandbox.channelId);
		// A deferral first, then the answer.
		const interaction = await stack.control.waitForResponses(id, 2);
		const text = replyOf(interaction, interaction.responses.length - 1).content!;
		expect(text).toMatch(/no journal/i);
		expect(text).toMatch(/name:/);
	});
});
