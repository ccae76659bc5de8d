import { type APIGuild, PermissionFlagsBits, REST, Routes } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlMember } from '@massnick/discord-sandbox';
import { type Answer, commandAnswer } from '../support/commandAnswer.js';
import { spawnRun } from '../support/spawnRun.js';
import { type Stack, startStack } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const HOUR = 3_600_000;
const MODERATOR = ['ManageNicknames', 'KickMembers', 'BanMembers', 'ManageMessages', 'ModerateMembers', 'ViewAuditLog'];
const BOTS = ['ManageNicknames', 'ChangeNickname', 'ViewAuditLog', 'ManageRoles'];

/**
 * `/lockdown` on the sandbox with the real discord.js: who may press it (Manage Guild, for the
 * member and for the boss), what it sets in the guild's `incidents_data`, how `/status` shows it,
 * and `/lockdown off`. The guild's state is read over REST, as any bot would.
 */
describe('/lockdown pauses invites (and DMs) through Discord’s incident actions', () => {
	let stack: Stack;
	let rest: REST;
	let moderator: ControlMember;
	let staff: ControlMember;
	let roles: Map<string, string>;

	const run = async (command: string, options: Record<string, unknown>, userId: string): Promise<Answer> =>
		commandAnswer(stack.control, await stack.control.invoke(stack.sandbox.guildId, userId, command, options, stack.sandbox.channelId));
	const incidents = async (): Promise<APIGuild['incidents_data']> => ((await rest.get(Routes.guild(stack.sandbox.guildId))) as APIGuild).incidents_data;
	const incidentPuts = async (): Promise<number> =>
		(await stack.control.requests()).requests.filter((request) => request.method === 'PUT' && request.route.endsWith('/incident-actions')).length;

	beforeAll(async () => {
		stack = await startStack({ members: 200, workers: 2 });
		rest = new REST({ api: stack.sandbox.apiUrl, retries: 0 }).setToken(stack.sandbox.bossToken);
		roles = new Map((await stack.control.state()).roles.map((role) => [role.name, role.id]));
		const members = await stack.control.members(stack.sandbox.guildId);
		const only = (role: string) =>
			members.find((member) => !member.bot && member.roles.includes(roles.get(role)!) && !member.roles.includes(roles.get('Admin')!))!;
		moderator = only('Moderator');
		staff = only('Staff');
	});

	afterAll(async () => {
		await stack?.close();
	});

	it('is registered with Manage Guild, on with hours 1 to 24 and dms, and off', () => {
		const definition = stack.massnick.boss.guild.commands.cache.find((command) => command.name === 'lockdown');
		expect(definition?.defaultMemberPermissions?.bitfield).toBe(PermissionFlagsBits.ManageGuild);
		expect(definition?.options.map((option) => option.name)).toEqual(['on', 'off']);
		const on = definition?.options[0] as { options?: Array<{ name: string; minValue?: number; maxValue?: number }> } | undefined;
		expect(on?.options?.map(({ name, minValue, maxValue }) => [name, minValue, maxValue])).toEqual([
			['hours', 1, 24],
			['dms', undefined, undefined],
		]);
	});

	it('a member without Manage Guild is refused privately, naming it, and nothing is sent', async () => {
		const before = await incidentPuts();
		const answer = await run('lockdown on', { hours: 6 }, moderator.id);
		expect(answer.ephemeral).toBe(true);
		expect(answer.text).toMatch(/needs the Manage Guild permission/);
		expect((await run('lockdown off', {}, staff.id)).text).toMatch(/needs the Manage Guild permission/);
		expect(await incidentPuts()).toBe(before);
		expect((await incidents())?.invites_disabled_until ?? null).toBe(null);
	});

	it('a moderator with Manage Guild is refused while the boss lacks it, naming it, before anything is sent', async () => {
		await stack.control.editRole(stack.sandbox.guildId, roles.get('Moderator')!, { permissions: [...MODERATOR, 'ManageGuild'] });
		const before = await incidentPuts();
		const answer = await run('lockdown on', { hours: 6 }, moderator.id);
		expect(answer.ephemeral).toBe(true);
		expect(answer.text).toMatch(/boss bot lacks the Manage Guild permission/);
		expect(answer.text).toMatch(/only for a lockdown/);
		expect(await incidentPuts()).toBe(before);
	});

	it('once the boss has Manage Guild, /lockdown on pauses invites until about now + hours, sent by the boss, said in the channel', async () => {
		await stack.control.editRole(stack.sandbox.guildId, roles.get('Massnick')!, { permissions: [...BOTS, 'ManageGuild'] });
		const boss = stack.massnick.boss;
		await waitUntil(() => boss.guild.members.me?.permissions.has(PermissionFlagsBits.ManageGuild) === true, { what: 'the boss to see its Manage Guild' });
		const sent = Date.now();
		const answer = await run('lockdown on', { hours: 6 }, moderator.id);
		expect(answer.ephemeral).toBe(false);
		expect(answer.text).toMatch(/Lockdown\*\* by .+: invites paused until <t:\d+:f> \(<t:\d+:R>\); DMs between members open/);
		const data = await incidents();
		const until = Date.parse(data!.invites_disabled_until!);
		expect(until).toBeGreaterThanOrEqual(sent + 6 * HOUR - 1000);
		expect(until).toBeLessThanOrEqual(Date.now() + 6 * HOUR);
		expect(data!.dms_disabled_until).toBe(null);
		expect(answer.text).toContain(`<t:${Math.floor(until / 1000)}:f>`);
		const put = (await stack.control.requests()).requests.filter((request) => request.route.endsWith('/incident-actions')).at(-1)!;
		expect([put.botUserId, put.status]).toEqual([boss.client.user!.id, 200]);
	});

	it('/status shows the lockdown in force: until when, invites and DMs', async () => {
		const id = await stack.control.invoke(stack.sandbox.guildId, moderator.id, 'status', {}, stack.sandbox.channelId);
		const interaction = await stack.control.waitForResponses(id, 2);
		const followUp = interaction.responses.find((response) => response.kind === 'followup');
		const content = (followUp?.body as { content?: string } | undefined)?.content ?? '';
		const until = Math.floor(Date.parse((await incidents())!.invites_disabled_until!) / 1000);
		expect(content).toMatch(/Lockdown in force/);
		expect(content).toContain(`invites paused until <t:${until}:f>`);
		expect(content).toContain('DMs between members open');
	});

	it('dms:true pauses DMs too; a later /lockdown on without dms keeps them paused, dms:false opens them', async () => {
		await run('lockdown on', { hours: 3, dms: true }, moderator.id);
		const both = await incidents();
		expect(both!.dms_disabled_until).toBe(both!.invites_disabled_until);
		const dmsUntil = Date.parse(both!.dms_disabled_until!);
		const kept = await run('lockdown on', { hours: 1 }, moderator.id);
		expect(kept.text).toMatch(/DMs between members paused until/);
		const after = await incidents();
		expect(Date.parse(after!.dms_disabled_until!)).toBe(dmsUntil);
		expect(Date.parse(after!.invites_disabled_until!)).toBeLessThan(Date.now() + 1.1 * HOUR);
		await run('lockdown on', { hours: 1, dms: false }, moderator.id);
		expect((await incidents())!.dms_disabled_until).toBe(null);
	});

	it('more than 24 hours is refused: Discord’s client will not send it, the option says 24 at most', async () => {
		await expect(stack.control.invoke(stack.sandbox.guildId, moderator.id, 'lockdown on', { hours: 25 }, stack.sandbox.channelId)).rejects.toThrow(
			/must be at most 24/,
		);
	});

	it('/lockdown off opens invites and DMs again, said in the channel', async () => {
		await run('lockdown on', { hours: 2, dms: true }, moderator.id);
		const answer = await run('lockdown off', {}, moderator.id);
		expect(answer.ephemeral).toBe(false);
		expect(answer.text).toMatch(/Lockdown lifted\*\* by .+: invites open; DMs between members open/);
		expect(await incidents()).toEqual({ invites_disabled_until: null, dms_disabled_until: null });
	});

	it('nothing it posted pinged anyone', async () => {
		expect(await stack.control.mentioningMessages(stack.sandbox.channelId)).toEqual([]);
	});

	describe('massnick run lockdown: the same request from a terminal, with the boss’s token', () => {
		const cli = (args: string[]) => spawnRun(stack.sandbox, stack.dataDir, ['lockdown', ...args]);

		it('run lockdown --hours 2 --dms pauses invites and DMs for 2 hours and says until when; exit 0', async () => {
			const sent = Date.now();
			const result = await cli(['--hours', '2', '--dms']);
			expect(result.code, result.stderr).toBe(0);
			const data = await incidents();
			const until = Date.parse(data!.invites_disabled_until!);
			expect(until).toBeGreaterThanOrEqual(sent + 2 * HOUR - 1000);
			expect(until).toBeLessThanOrEqual(Date.now() + 2 * HOUR);
			expect(data!.dms_disabled_until).toBe(data!.invites_disabled_until);
			expect(result.stderr).toContain(`Lockdown: invites paused until ${new Date(until).toISOString()}; DMs between members paused until`);
			const logged = result.stdout
				.split('\n')
				.filter((line) => line.includes('"lockdown"'))
				.map((line) => JSON.parse(line) as Record<string, unknown>);
			expect(logged).toEqual([expect.objectContaining({ msg: 'lockdown', off: false, exitCode: 0 })]);
		});

		it('run lockdown --hours 25 is a bad argument naming --hours and Discord’s 24 hours; nothing is sent', async () => {
			const before = await incidentPuts();
			const result = await cli(['--hours', '25']);
			expect(result.code).toBe(2);
			expect(result.stderr).toMatch(/--hours must be a whole number from 1 to 24, got 25: Discord pauses invites and DMs for at most 24 hours/);
			expect(await incidentPuts()).toBe(before);
		});

		it('refused with exit 4, naming Manage Guild, while the boss lacks it', async () => {
			await stack.control.editRole(stack.sandbox.guildId, roles.get('Massnick')!, { permissions: BOTS });
			try {
				const result = await cli(['off']);
				expect(result.code).toBe(4);
				expect(result.stderr).toMatch(/boss bot lacks the Manage Guild permission.*Nothing changed\./);
				expect((await incidents())!.invites_disabled_until).not.toBe(null);
			} finally {
				await stack.control.editRole(stack.sandbox.guildId, roles.get('Massnick')!, { permissions: [...BOTS, 'ManageGuild'] });
			}
		});

		it('run lockdown off opens invites and DMs again; exit 0', async () => {
			const result = await cli(['off']);
			expect(result.code, result.stderr).toBe(0);
			expect(result.stderr).toContain('Lockdown lifted: invites open; DMs between members open.');
			expect(await incidents()).toEqual({ invites_disabled_until: null, dms_disabled_until: null });
		});
	});
});
