import { REST } from '@discordjs/rest';
import { type APIApplicationCommand, type APIGuildMember, PermissionFlagsBits, Routes } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxRequest } from '@massnick/discord-sandbox';
import { type Answer, commandAnswer } from '../support/commandAnswer.js';
import { type Stack, startStack } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const SHARED = ['restore', 'status', 'stats', 'shards', 'cancel'];
const PATCH_MEMBER = (request: SandboxRequest): boolean => request.method === 'PATCH' && request.route === '/guilds/:id/members/:id';
const AIM = { joined_after: '30m', created_after: '1d' };
const RAID = 40;
/** What a member who may run no job is told: the permissions that would let them. */
const NONE_OF_THEM = /may run one of massnick's jobs, with Manage Nicknames, Manage Roles, Moderate Members, Kick Members or Manage Guild/;

/**
 * The commands every job shares (/restore, /status, /stats, /shards, /cancel) are for anyone who
 * may run some job, not only renamers: a moderator who may only time out sees their timeout in
 * /status, stops it with /cancel and undoes it with /restore. Discord cannot hide a command from
 * all but members holding one of several permissions, so those commands show to everyone and the
 * boss refuses, privately, a member who may run no job; stopping or undoing a job asks what
 * running it did, so a renamer can neither stop nor undo a timeout.
 */
describe('the commands every job shares', () => {
	let stack: Stack;
	let guildId: string;
	let rest: REST;
	let raidIds: string[];
	let modId: string;
	let renamerId: string;
	let plainId: string;

	async function answer(command: string, userId: string, options: Record<string, unknown> = {}): Promise<Answer> {
		return commandAnswer(stack.control, await stack.control.invoke(guildId, userId, command, options, stack.sandbox.channelId));
	}

	async function timedOut(): Promise<Set<string>> {
		const page = (await rest.get(Routes.guildMembers(guildId), { query: new URLSearchParams({ limit: '1000' }) })) as APIGuildMember[];
		return new Set(page.filter((member) => member.communication_disabled_until).map((member) => member.user.id));
	}

	async function previewAndStart(command: string, options: Record<string, unknown>, userId: string): Promise<void> {
		const previous = stack.massnick.jobs.last;
		const preview = await stack.preview(command, options, userId);
		await stack.press(preview.message.id, preview.start, userId);
		await waitUntil(() => stack.massnick.jobs.last !== previous && stack.massnick.jobs.current === undefined, {
			what: `/${command} to end`,
			timeoutMs: 60_000,
		});
	}

	beforeAll(async () => {
		stack = await startStack({ members: 300, workers: 4, settings: (config) => ({ ...config, preview: { timeoutSeconds: 60, skipBelowMembers: 0 } }) });
		guildId = stack.sandbox.guildId;
		rest = new REST({ api: stack.sandbox.apiUrl, retries: 0 }).setToken(stack.sandbox.bossToken);
		const massnickRole = stack.sandbox.state.guild.roleIds.Massnick;
		await stack.control.editRole(guildId, massnickRole, {
			permissions: ['ManageNicknames', 'ChangeNickname', 'ViewAuditLog', 'ManageRoles', 'ModerateMembers'],
		});
		await waitUntil(() => stack.massnick.fleet.workers.every((worker) => worker.hasPermission(PermissionFlagsBits.ModerateMembers)), {
			what: 'the workers to see Moderate Members',
		});
		({ raidIds } = await stack.control.stageRaid(guildId, { count: RAID, realJoiners: 10, windowMs: 10 * 60_000, seed: 5 }));
		const ours = new Set([...stack.massnick.fleet.workers.map((worker) => worker.client.user!.id), stack.massnick.boss.client.user!.id]);
		const plain = (await stack.control.members(guildId)).filter(
			(member) => !ours.has(member.id) && !member.bot && member.roles.length === 0 && member.id !== stack.sandbox.ownerId && !raidIds.includes(member.id),
		);
		const workersAt = stack.sandbox.state.guild.roles.find((role) => role.name === 'Massnick')!.position;
		// A moderator who may time out and nothing else, and a renamer who may rename and nothing else.
		const modRole = await stack.control.createRole(guildId, { name: 'Timeouts', permissions: ['ModerateMembers'], position: workersAt });
		const renamerRole = await stack.control.createRole(guildId, { name: 'Renamer', permissions: ['ManageNicknames'], position: workersAt });
		[modId, renamerId, plainId] = plain.map((member) => member.id) as [string, string, string];
		await stack.control.addMemberRole(guildId, modId, modRole.id);
		await stack.control.addMemberRole(guildId, renamerId, renamerRole.id);
	});

	afterAll(async () => {
		await stack?.close();
	});

	it('have no permission of their own in the guild, and are refused privately to a member who may run no job', async () => {
		const applicationId = stack.massnick.boss.client.application!.id;
		const registered = (await rest.get(Routes.applicationGuildCommands(applicationId, guildId))) as APIApplicationCommand[];
		for (const name of SHARED) expect(registered.find((command) => command.name === name)?.default_member_permissions ?? null, name).toBeNull();
		expect(registered.find((command) => command.name === 'masstimeout')?.default_member_permissions).toBe(String(PermissionFlagsBits.ModerateMembers));
		for (const name of SHARED) {
			const refusal = await answer(name, plainId);
			expect(refusal.ephemeral, name).toBe(true);
			expect(refusal.text, name).toMatch(NONE_OF_THEM);
		}
	});

	it('a moderator who may only time out sees their job in /status and undoes it with /restore; a renamer may not undo it', async () => {
		await previewAndStart('masstimeout', { duration: '1h', ...AIM }, modId);
		const set = await timedOut();
		expect(set.size).toBeGreaterThan(0);
		for (const id of set) expect(raidIds).toContain(id);

		const status = await answer('status', modId);
		expect(status.text).not.toMatch(/may not/);
		expect(status.text).toMatch(/[Tt]iming out|[Tt]imed out/);

		const { lastSeq } = await stack.control.requests();
		const refused = await answer('restore', renamerId);
		expect(refused.text).toMatch(/Moderate Members/);
		expect((await stack.control.requests(lastSeq)).requests.filter(PATCH_MEMBER)).toEqual([]);
		expect(await timedOut()).toEqual(set);

		await previewAndStart('restore', {}, modId);
		expect(await timedOut()).toEqual(new Set());
	});

	it('stopping a timeout asks for Moderate Members: a renamer is refused and the job goes on, the moderator stops it', async () => {
		// Slow answers keep the job running while both try /cancel.
		await stack.control.faults({ latencyMs: 400 });
		try {
			const previous = stack.massnick.jobs.last;
			const preview = await stack.preview('masstimeout', { duration: '2h', ...AIM }, modId);
			await stack.press(preview.message.id, preview.start, modId);
			await waitUntil(() => stack.massnick.jobs.current !== undefined && stack.massnick.jobs.current !== previous, { what: 'the timeout to start' });
			const job = stack.massnick.jobs.current!;

			const refused = await answer('cancel', renamerId);
			expect(refused.ephemeral).toBe(true);
			expect(refused.text).toMatch(/You may not stop \*\*.+\*\* here: it needs the Moderate Members permission/);
			expect(job.result).toBeUndefined();
			expect(stack.massnick.jobs.current).toBe(job);

			const stopped = await answer('cancel', modId);
			expect(stopped.text).toMatch(/^Cancelling \*\*/);
			await waitUntil(() => job.result !== undefined, { what: 'the timeout to stop', timeoutMs: 30_000 });
			expect(job.result!.state).toBe('cancelled');
		} finally {
			await stack.control.faults({ resetFaults: true });
		}
	});
});
