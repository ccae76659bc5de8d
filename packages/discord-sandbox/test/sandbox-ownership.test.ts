import { REST } from '@discordjs/rest';
import { GatewayDispatchEvents, Routes, type APIGuild, type GatewayGuildUpdateDispatchData } from 'discord-api-types/v10';
import { Client, Events, GatewayIntentBits, type Guild } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControl } from '../src/client/SandboxControl.js';
import { startSandbox, type Sandbox } from '../src/startSandbox.js';
import { loginAll } from './support/loginAll.js';
import { waitUntil } from './support/waitUntil.js';

/**
 * The owner gives the server to another member (Transfer Ownership in Server Settings), seen
 * through the real discord.js: GUILD_UPDATE carries the new `owner_id`, which discord.js keeps as
 * `guild.ownerId`, and REST answers it from then on.
 */
let sandbox: Sandbox;
let control: SandboxControl;
let rest: REST;
let client: Client;
const guildUpdates: GatewayGuildUpdateDispatchData[] = [];

beforeAll(async () => {
	sandbox = await startSandbox({ members: 40, workers: 1, seed: 17, timeScale: 50 });
	control = new SandboxControl(sandbox.controlUrl);
	rest = new REST({ api: sandbox.apiUrl, retries: 0 }).setToken(sandbox.bossToken);
	client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: sandbox.apiUrl, retries: 0 } });
	client.on(Events.Raw, (packet: { t: string; d: never }) => {
		if (packet.t === GatewayDispatchEvents.GuildUpdate) guildUpdates.push(packet.d);
	});
	await loginAll([[client, sandbox.bossToken]]);
});
afterAll(async () => {
	await client?.destroy();
	await sandbox?.close();
});

const guild = (): Guild => client.guilds.cache.get(sandbox.guildId)!;

describe('PUT /_sandbox/guilds/{g}/owner', () => {
	it('gives the server to a member: GUILD_UPDATE with the new owner_id, guild.ownerId in discord.js, and REST', async () => {
		expect(guild().ownerId).toBe(sandbox.ownerId);
		const heir = (await control.members(sandbox.guildId)).find((member) => !member.bot && member.id !== sandbox.ownerId)!;
		const rolesBefore = (await control.members(sandbox.guildId)).map((member) => [member.id, member.roles]);
		const updated = new Promise<[Guild, Guild]>((resolve) => client.once(Events.GuildUpdate, (old, now) => resolve([old, now])));
		expect(await control.transferOwnership(sandbox.guildId, heir.id)).toEqual({ ownerId: heir.id });
		const [old, now] = await updated;
		expect([old.ownerId, now.ownerId]).toEqual([sandbox.ownerId, heir.id]);
		expect(guildUpdates.at(-1)).toMatchObject({ id: sandbox.guildId, owner_id: heir.id });
		expect(((await rest.get(Routes.guild(sandbox.guildId))) as APIGuild).owner_id).toBe(heir.id);
		expect((await control.state()).ownerId).toBe(heir.id);
		// Nobody's roles change with it.
		expect((await control.members(sandbox.guildId)).map((member) => [member.id, member.roles])).toEqual(rolesBefore);
	});

	it('refuses a bot, the owner themself and someone who is no member, and changes nothing', async () => {
		const { ownerId } = await control.state();
		const bot = (await control.members(sandbox.guildId)).find((member) => member.bot)!;
		const updates = guildUpdates.length;
		await expect(control.transferOwnership(sandbox.guildId, bot.id)).rejects.toThrow(/a bot cannot be given the server/);
		await expect(control.transferOwnership(sandbox.guildId, ownerId)).rejects.toThrow(/owns the server already/);
		await expect(control.transferOwnership(sandbox.guildId, '1')).rejects.toThrow(/404|unknown|not a member/i);
		expect((await control.state()).ownerId).toBe(ownerId);
		// A GUILD_UPDATE after them all: none of the refusals sent one before it.
		await control.transferOwnership(sandbox.guildId, sandbox.ownerId);
		await waitUntil(() => guild().ownerId === sandbox.ownerId, { what: 'the server given back' });
		expect(guildUpdates.length).toBe(updates + 1);
	});
});
