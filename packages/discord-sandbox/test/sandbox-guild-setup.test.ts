import { REST } from '@discordjs/rest';
import {
	GatewayDispatchEvents,
	OverwriteType,
	RESTJSONErrorCodes,
	Routes,
	type APIGuildTextChannel,
	type APIRole,
	type ChannelType,
	type RESTGetAPIGuildRoleMemberCountsResult,
} from 'discord-api-types/v10';
import { Client, GatewayIntentBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControl } from '../src/client/SandboxControl.js';
import type { SandboxDispatch } from '../src/gateway/GatewayHost.js';
import { startSandbox, type Sandbox } from '../src/startSandbox.js';
import { apiFailure } from './support/apiFailure.js';
import { loginAll } from './support/loginAll.js';

/**
 * What a server admin changes in Server Settings (roles, who holds them, a channel's overwrites,
 * kicking a bot), done through the control API, and how Discord's REST answers afterwards.
 */
let sandbox: Sandbox;
let control: SandboxControl;
let boss: REST;
let worker: REST;
const events: SandboxDispatch[] = [];

beforeAll(async () => {
	sandbox = await startSandbox({ members: 400, workers: 2, seed: 13, timeScale: 50 });
	sandbox.state.events.subscribe((event) => events.push(event));
	control = new SandboxControl(sandbox.controlUrl);
	boss = new REST({ api: sandbox.apiUrl, retries: 0 }).setToken(sandbox.bossToken);
	worker = new REST({ api: sandbox.apiUrl, retries: 0 }).setToken(sandbox.workerTokens[0]!);
});
afterAll(async () => {
	await sandbox.close();
});

const roles = async (): Promise<APIRole[]> => (await boss.get(Routes.guildRoles(sandbox.guildId))) as APIRole[];
const roleNamed = async (name: string): Promise<APIRole> => (await roles()).find((role) => role.name === name)!;

describe('role member counts', () => {
	it('counts the members of every role but @everyone, as the members hold them, with no members intent', async () => {
		const counts = (await worker.get(Routes.guildRoleMemberCounts(sandbox.guildId))) as RESTGetAPIGuildRoleMemberCountsResult;
		const expected = new Map<string, number>();
		for (const member of await control.members(sandbox.guildId)) for (const role of member.roles) expected.set(role, (expected.get(role) ?? 0) + 1);
		const all = await roles();
		expect(Object.keys(counts).sort()).toEqual(
			all
				.filter((role) => role.id !== sandbox.guildId)
				.map((role) => role.id)
				.sort(),
		);
		for (const role of all) if (role.id !== sandbox.guildId) expect(counts[role.id]).toBe(expected.get(role.id) ?? 0);
	});
});

describe('roles', () => {
	it('creates a role at a position, moving the roles above it up (GUILD_ROLE_CREATE, GUILD_ROLE_UPDATE)', async () => {
		const massnick = await roleNamed('Massnick');
		const before = await roles();
		const from = events.length;
		const vip = await control.createRole(sandbox.guildId, { name: 'VIP', permissions: ['ManageNicknames'], position: massnick.position + 1 });
		expect(vip).toMatchObject({ name: 'VIP', position: massnick.position + 1, permissions: '134217728' });
		const after = await roles();
		expect(after.map((role) => role.position)).toEqual(after.map((_, index) => index));
		for (const role of before.filter((role) => role.position > massnick.position)) {
			expect(after.find((moved) => moved.id === role.id)!.position).toBe(role.position + 1);
		}
		expect(events.slice(from).map((event) => event.t)).toEqual([
			GatewayDispatchEvents.GuildRoleCreate,
			...before.filter((role) => role.position > massnick.position).map(() => GatewayDispatchEvents.GuildRoleUpdate),
		]);
	});

	it('a member given a role above the bots can no longer be renamed (403/50013); taking it away lets them be', async () => {
		const vip = await roleNamed('VIP');
		const target = (await control.members(sandbox.guildId)).find((member) => !member.bot && member.roles.length === 1)!;
		const held = await control.addMemberRole(sandbox.guildId, target.id, vip.id);
		expect(held.roles).toContain(vip.id);
		expect(events.at(-1)).toMatchObject({ t: GatewayDispatchEvents.GuildMemberUpdate, d: { user: { id: target.id }, roles: held.roles } });
		const error = await apiFailure(worker.patch(Routes.guildMember(sandbox.guildId, target.id), { body: { nick: 'above' } }));
		expect(error.code).toBe(RESTJSONErrorCodes.MissingPermissions);
		await control.removeMemberRole(sandbox.guildId, target.id, vip.id);
		await worker.patch(Routes.guildMember(sandbox.guildId, target.id), { body: { nick: 'below' } });
	});

	it("a role's permissions decide what its holders may do", async () => {
		const massnick = await roleNamed('Massnick');
		const target = (await control.members(sandbox.guildId)).find((member) => !member.bot && member.roles.length === 0)!;
		await control.editRole(sandbox.guildId, massnick.id, { permissions: ['ChangeNickname'] });
		const error = await apiFailure(worker.patch(Routes.guildMember(sandbox.guildId, target.id), { body: { nick: 'nope' } }));
		expect(error.code).toBe(RESTJSONErrorCodes.MissingPermissions);
		await control.editRole(sandbox.guildId, massnick.id, { permissions: massnick.permissions });
		await worker.patch(Routes.guildMember(sandbox.guildId, target.id), { body: { nick: 'again' } });
	});

	it('refuses unknown roles, bad permissions and moving @everyone', async () => {
		await expect(control.editRole(sandbox.guildId, '123456789012345678', { permissions: '0' })).rejects.toThrow(/404.*unknown role/);
		await expect(control.createRole(sandbox.guildId, { name: 'X', permissions: ['NotAPermission'] })).rejects.toThrow(/400.*unknown permission/);
		await expect(control.editRole(sandbox.guildId, sandbox.guildId, { position: 3 })).rejects.toThrow(/400.*@everyone/);
	});
});

describe('channel permission overwrites', () => {
	const post = (rest: REST) => rest.post(Routes.channelMessages(sandbox.channelId), { body: { content: 'status' } });

	it('a member overwrite denying Send Messages makes message create answer 403/50013, and shows in the channel list', async () => {
		await control.setChannelPermission(sandbox.channelId, sandbox.bossId, { type: 1, deny: ['SendMessages'] });
		expect(events.at(-1)).toMatchObject({ t: GatewayDispatchEvents.ChannelUpdate, d: { id: sandbox.channelId } });
		const error = await apiFailure(post(boss));
		expect([error.status, error.code]).toEqual([403, RESTJSONErrorCodes.MissingPermissions]);
		const [channel] = (await boss.get(Routes.guildChannels(sandbox.guildId))) as APIGuildTextChannel<ChannelType.GuildText>[];
		expect(channel!.permission_overwrites).toEqual([{ id: sandbox.bossId, type: OverwriteType.Member, allow: '0', deny: '2048' }]);
		await post(worker);
	});

	it('a role overwrite denying View Channel answers 403/50001; a member allow wins over it', async () => {
		const massnick = await roleNamed('Massnick');
		await control.setChannelPermission(sandbox.channelId, massnick.id, { type: 0, deny: ['ViewChannel'] });
		expect((await apiFailure(post(worker))).code).toBe(RESTJSONErrorCodes.MissingAccess);
		await control.setChannelPermission(sandbox.channelId, sandbox.workerIds[0]!, { type: 1, allow: ['ViewChannel'] });
		await post(worker);
	});

	it('deleting the overwrites gives the channel back', async () => {
		const massnick = await roleNamed('Massnick');
		for (const id of [sandbox.bossId, sandbox.workerIds[0]!, massnick.id]) await control.deleteChannelPermission(sandbox.channelId, id);
		await post(boss);
		await post(worker);
	});
});

describe('a bot removed from the guild', () => {
	it('is told of no guild at login, and REST answers it as a non-member while its token stays valid', async () => {
		const removedId = sandbox.workerIds[1]!;
		const rest = new REST({ api: sandbox.apiUrl, retries: 0 }).setToken(sandbox.workerTokens[1]!);
		const from = events.length;
		await control.removeMember(sandbox.guildId, removedId);
		expect(events.slice(from).map((event) => [event.t, event.appId])).toEqual([
			[GatewayDispatchEvents.GuildDelete, removedId],
			[GatewayDispatchEvents.GuildMemberRemove, undefined],
		]);

		expect((await apiFailure(rest.get(Routes.guild(sandbox.guildId)))).code).toBe(RESTJSONErrorCodes.UnknownGuild);
		for (const request of [
			rest.get(Routes.guildMember(sandbox.guildId, removedId)),
			rest.get(Routes.guildRoleMemberCounts(sandbox.guildId)),
			rest.post(Routes.channelMessages(sandbox.channelId), { body: { content: 'hi' } }),
		]) {
			const error = await apiFailure(request);
			expect([error.status, error.code]).toEqual([403, RESTJSONErrorCodes.MissingAccess]);
		}
		expect(await rest.get(Routes.currentApplication())).toMatchObject({ id: removedId });
		expect((await apiFailure(boss.get(Routes.guildMember(sandbox.guildId, removedId)))).code).toBe(RESTJSONErrorCodes.UnknownMember);

		const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: sandbox.apiUrl } });
		try {
			await loginAll([[client, sandbox.workerTokens[1]!]]);
			expect(client.guilds.cache.size).toBe(0);
		} finally {
			await client.destroy();
		}
	});
});
