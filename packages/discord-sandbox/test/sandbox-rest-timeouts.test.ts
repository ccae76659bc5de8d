import { REST } from '@discordjs/rest';
import {
	AuditLogEvent,
	GatewayDispatchEvents,
	RESTJSONErrorCodes,
	Routes,
	type APIAuditLog,
	type APIGuildMember,
	type GatewayGuildMemberUpdateDispatchData,
} from 'discord-api-types/v10';
import { Client, Events, GatewayIntentBits, type Guild, type Interaction, PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControl } from '../src/client/SandboxControl.js';
import { renamableMembers } from '../src/renamableMembers.js';
import { startSandbox, type Sandbox } from '../src/startSandbox.js';
import { apiFailure } from './support/apiFailure.js';
import { loginAll } from './support/loginAll.js';
import { waitUntil } from './support/waitUntil.js';

/**
 * Timeouts (`communication_disabled_until` on Modify Guild Member) through the real discord.js,
 * with Discord's rules: Moderate Members, the 28-day bound, never the owner or an Administrator.
 * Incident actions are in sandbox-rest-incident-actions.test.ts.
 */
let sandbox: Sandbox;
let control: SandboxControl;
let rest: REST;
let client: Client;
const memberUpdates: GatewayGuildMemberUpdateDispatchData[] = [];
const PERMISSIONS = ['ManageNicknames', 'ViewAuditLog', 'ModerateMembers'];
const DAY = 86_400_000;

beforeAll(async () => {
	sandbox = await startSandbox({ members: 200, workers: 1, seed: 41, timeScale: 50 });
	control = new SandboxControl(sandbox.controlUrl);
	await control.editRole(sandbox.guildId, sandbox.state.guild.roleIds.Massnick, { permissions: PERMISSIONS });
	rest = new REST({ api: sandbox.apiUrl, retries: 0 }).setToken(sandbox.bossToken);
	client = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers], rest: { api: sandbox.apiUrl, retries: 0 } });
	client.on(Events.Raw, (packet: { t: string; d: never }) => {
		if (packet.t === GatewayDispatchEvents.GuildMemberUpdate) memberUpdates.push(packet.d);
	});
	await loginAll([[client, sandbox.bossToken]]);
});
afterAll(async () => {
	await client?.destroy();
	await sandbox?.close();
});

const guild = (): Guild => client.guilds.cache.get(sandbox.guildId)!;
const memberJson = async (userId: string): Promise<APIGuildMember> => (await rest.get(Routes.guildMember(sandbox.guildId, userId))) as APIGuildMember;

describe('communication_disabled_until on PATCH /guilds/{id}/members/{user}', () => {
	it('times a member out with member.timeout: the member object carries it, GUILD_MEMBER_UPDATE says so, a MEMBER_UPDATE entry records it', async () => {
		const [target] = renamableMembers(sandbox, 1);
		const member = await guild().members.fetch(target!);
		await member.timeout(DAY, 'raid: timed out');
		const { communication_disabled_until: written } = await memberJson(target!);
		const until = Date.parse(written!);
		expect(until).toBeGreaterThan(Date.now() + DAY - 60_000);
		// The control API's member list shows it as Discord writes it, for the benchmark's checks.
		expect((await control.members(sandbox.guildId)).find((listed) => listed.id === target)?.communicationDisabledUntil).toBe(written);
		await waitUntil(() => memberUpdates.some((update) => update.user.id === target && update.communication_disabled_until !== null), {
			what: 'GUILD_MEMBER_UPDATE with the timeout',
		});
		await waitUntil(() => guild().members.cache.get(target!)?.isCommunicationDisabled() === true, { what: 'discord.js to see the timeout' });
		const query = new URLSearchParams({ action_type: String(AuditLogEvent.MemberUpdate), limit: '1' });
		const [entry] = ((await rest.get(Routes.guildAuditLog(sandbox.guildId), { query })) as APIAuditLog).audit_log_entries;
		expect(entry).toMatchObject({ target_id: target, reason: 'raid: timed out', changes: [{ key: 'communication_disabled_until' }] });
		expect(Date.parse(entry!.changes![0]!.new_value as string)).toBe(until);
	});

	it('lifts it with null: the member’s value is null again and the entry has only the old value', async () => {
		const [target] = renamableMembers(sandbox, 1);
		await guild().members.edit(target!, { communicationDisabledUntil: null });
		expect((await memberJson(target!)).communication_disabled_until).toBe(null);
		expect((await control.members(sandbox.guildId)).find((listed) => listed.id === target)).not.toHaveProperty('communicationDisabledUntil');
		const query = new URLSearchParams({ action_type: String(AuditLogEvent.MemberUpdate), limit: '1' });
		const [entry] = ((await rest.get(Routes.guildAuditLog(sandbox.guildId), { query })) as APIAuditLog).audit_log_entries;
		expect(entry!.changes).toEqual([{ key: 'communication_disabled_until', old_value: expect.any(String) }]);
	});

	it('refuses more than 28 days ahead with 400/50035 INVALID_COMMUNICATION_DISABLED_TIMESTAMP and changes nothing', async () => {
		const [, target] = renamableMembers(sandbox, 2);
		const error = await apiFailure(guild().members.edit(target!, { communicationDisabledUntil: Date.now() + 28 * DAY + 60_000 }));
		expect([error.status, error.code]).toEqual([400, RESTJSONErrorCodes.InvalidFormBodyOrContentType]);
		expect(error.rawError).toMatchObject({ errors: { communication_disabled_until: { _errors: [{ code: 'INVALID_COMMUNICATION_DISABLED_TIMESTAMP' }] } } });
		expect((await memberJson(target!)).communication_disabled_until).toBe(null);
		await guild().members.edit(target!, { communicationDisabledUntil: Date.now() + 28 * DAY - 60_000 });
		expect((await memberJson(target!)).communication_disabled_until).not.toBe(null);
	});

	it('refuses the owner, a member above the bot, and a member below it who holds Administrator with 403/50013', async () => {
		const [, , helper] = renamableMembers(sandbox, 3);
		const role = await control.createRole(sandbox.guildId, { name: 'Helper', permissions: ['Administrator'], position: 1 });
		await control.addMemberRole(sandbox.guildId, helper!, role.id);
		const { state } = sandbox;
		const admin = state.members.idAt(
			[...state.members.indices()].find((index) => state.members.roles(index).includes(state.guild.roleIds.Admin) && !state.isOwner(index))!,
		);
		for (const userId of [sandbox.ownerId, admin.toString(), helper!]) {
			const error = await apiFailure(
				rest.patch(Routes.guildMember(sandbox.guildId, userId), { body: { communication_disabled_until: new Date(Date.now() + DAY).toISOString() } }),
			);
			expect([error.status, error.code]).toEqual([403, RESTJSONErrorCodes.MissingPermissions]);
		}
	});

	it('refuses a bot without Moderate Members with 403/50013, though it may still rename', async () => {
		const [, , , target] = renamableMembers(sandbox, 4);
		await control.editRole(sandbox.guildId, sandbox.state.guild.roleIds.Massnick, { permissions: ['ManageNicknames'] });
		try {
			const error = await apiFailure(guild().members.edit(target!, { communicationDisabledUntil: Date.now() + DAY }));
			expect(error.code).toBe(RESTJSONErrorCodes.MissingPermissions);
			expect((await guild().members.edit(target!, { nick: 'Still renamable' })).nickname).toBe('Still renamable');
		} finally {
			await control.editRole(sandbox.guildId, sandbox.state.guild.roleIds.Massnick, { permissions: PERMISSIONS });
		}
	});
});

describe('a timed-out member', () => {
	it('holds only View Channel and Read Message History in a command’s interaction while the timeout is in force, overwrites included, and all again once it has ended', async () => {
		await rest.put(Routes.applicationGuildCommands(sandbox.bossId, sandbox.guildId), { body: [{ name: 'ping', description: 'ping' }] });
		const [, , , , target] = renamableMembers(sandbox, 5);
		const role = await control.createRole(sandbox.guildId, { name: 'Talker', permissions: ['SendMessages', 'ManageNicknames'], position: 1 });
		await control.addMemberRole(sandbox.guildId, target!, role.id);
		await control.setChannelPermission(sandbox.channelId, target!, { type: 1, allow: ['SendMessages', 'AttachFiles'] });
		const seen: bigint[] = [];
		const listener = (interaction: Interaction): void => {
			if (interaction.user.id === target) seen.push(interaction.memberPermissions!.bitfield);
		};
		client.on(Events.InteractionCreate, listener);
		const invokeAs = async (): Promise<bigint> => {
			const count = seen.length;
			await control.invoke(sandbox.guildId, target!, 'ping', {}, sandbox.channelId);
			await waitUntil(() => seen.length > count, { what: 'the interaction' });
			return seen.at(-1)!;
		};
		try {
			const set = (until: number) =>
				rest.patch(Routes.guildMember(sandbox.guildId, target!), { body: { communication_disabled_until: new Date(until).toISOString() } });
			await set(Date.now() + DAY);
			expect(await invokeAs()).toBe(PermissionFlagsBits.ViewChannel | PermissionFlagsBits.ReadMessageHistory);
			// A time in the past is taken, and is no timeout: Discord keeps it as it was set (discord-api-docs #4385).
			await set(Date.now() - DAY);
			expect(Date.parse((await memberJson(target!)).communication_disabled_until!)).toBeLessThan(Date.now());
			const after = await invokeAs();
			expect(after & PermissionFlagsBits.SendMessages).toBe(PermissionFlagsBits.SendMessages);
			expect(after & PermissionFlagsBits.ManageNicknames).toBe(PermissionFlagsBits.ManageNicknames);
		} finally {
			client.off(Events.InteractionCreate, listener);
			await control.deleteChannelPermission(sandbox.channelId, target!);
		}
	});

	it('a bot timed out is refused what its roles allow, 403/50013, until the timeout ends; an Administrator keeps every permission', async () => {
		const { state } = sandbox;
		const worker = state.apps.find((app) => app.role === 'worker')!;
		const workerRest = new REST({ api: sandbox.apiUrl, retries: 0 }).setToken(sandbox.workerTokens[0]!);
		const [, , , , , target] = renamableMembers(sandbox, 6);
		const rename = (nick: string) => workerRest.patch(Routes.guildMember(sandbox.guildId, target!), { body: { nick } });
		// Set as Discord keeps it; the workers share the boss's rank, so no bot of the sandbox may time them out.
		state.timeouts.set(worker.memberIndex, state.now() + DAY);
		try {
			const error = await apiFailure(rename('Refused'));
			expect([error.status, error.code]).toEqual([403, RESTJSONErrorCodes.MissingPermissions]);
		} finally {
			state.timeouts.delete(worker.memberIndex);
		}
		expect(((await rename('Allowed')) as APIGuildMember).nick).toBe('Allowed');
		const admin = [...state.members.indices()].find((index) => state.members.roles(index).includes(state.guild.roleIds.Admin) && !state.isOwner(index))!;
		state.timeouts.set(admin, state.now() + DAY);
		try {
			expect(state.permissions(admin) & PermissionFlagsBits.Administrator).toBe(PermissionFlagsBits.Administrator);
		} finally {
			state.timeouts.delete(admin);
		}
	});
});
