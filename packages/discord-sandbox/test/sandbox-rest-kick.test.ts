import { GatewayDispatchEvents, RESTJSONErrorCodes, Routes, type GatewayGuildMemberRemoveDispatchData } from 'discord-api-types/v10';
import { Client, Events, GatewayIntentBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControl } from '../src/client/SandboxControl.js';
import { renamableMembers } from '../src/renamableMembers.js';
import { startSandbox, type Sandbox } from '../src/startSandbox.js';
import { apiFailure } from './support/apiFailure.js';
import { loginAll } from './support/loginAll.js';
import { waitUntil } from './support/waitUntil.js';

/**
 * Remove Guild Member (a kick) as massnick's `/masskick` meets it: the event each bot gets by its
 * intents, the member count, the bots that cannot be kicked, and the route's own bucket.
 *
 * @see https://discord.com/developers/docs/resources/guild#remove-guild-member
 */
let sandbox: Sandbox;
let boss: Client;
let worker: Client;
const removed = { boss: [] as string[], worker: [] as string[] };
let targets: string[] = [];

beforeAll(async () => {
	sandbox = await startSandbox({ members: 200, workers: 2, seed: 33 });
	const control = new SandboxControl(sandbox.controlUrl);
	await control.editRole(sandbox.guildId, sandbox.state.guild.roleIds.Massnick, { permissions: ['ManageNicknames', 'ManageRoles', 'KickMembers'] });
	boss = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers], rest: { api: sandbox.apiUrl, retries: 0 } });
	worker = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: sandbox.apiUrl, retries: 0 } });
	for (const [name, client] of [
		['boss', boss],
		['worker', worker],
	] as const) {
		client.on(Events.Raw, (packet: { t?: string; d: GatewayGuildMemberRemoveDispatchData }) => {
			if (packet.t === GatewayDispatchEvents.GuildMemberRemove) removed[name].push(packet.d.user.id);
		});
	}
	await loginAll([
		[boss, sandbox.bossToken],
		[worker, sandbox.workerTokens[0]!],
	]);
	targets = renamableMembers(sandbox);
});
afterAll(async () => {
	await Promise.all([boss?.destroy(), worker?.destroy()]);
	await sandbox?.close();
});

const kick = (token: string, userId: string, reason?: string): Promise<Response> =>
	fetch(`${sandbox.apiUrl}/v10${Routes.guildMember(sandbox.guildId, userId)}`, {
		method: 'DELETE',
		headers: { Authorization: `Bot ${token}`, ...(reason ? { 'X-Audit-Log-Reason': encodeURIComponent(reason) } : {}) },
	});

describe('a kick', () => {
	it('sends GUILD_MEMBER_REMOVE to the bots with the Server Members intent only, and the member count drops by one', async () => {
		const [target] = targets.splice(0, 1);
		const guild = boss.guilds.cache.get(sandbox.guildId)!;
		const before = guild.memberCount;
		await worker.guilds.cache.get(sandbox.guildId)!.members.kick(target!, 'raid cleanup');
		await waitUntil(() => removed.boss.includes(target!), { what: 'the boss to get GUILD_MEMBER_REMOVE' });
		expect(guild.memberCount).toBe(before - 1);
		expect(removed.worker).not.toContain(target);
		expect(sandbox.state.memberIndex(sandbox.guildId, target!)).toBe(-1);
	});

	it('refuses a bot kicking itself or a bot of the same rank with 403/50013, and removes nobody', async () => {
		const [self, other] = sandbox.workerIds;
		for (const userId of [self!, other!]) {
			const error = await apiFailure(worker.guilds.cache.get(sandbox.guildId)!.members.kick(userId));
			expect([error.status, error.code]).toEqual([403, RESTJSONErrorCodes.MissingPermissions]);
			expect(sandbox.state.memberIndex(sandbox.guildId, userId)).not.toBe(-1);
		}
	});

	it('has a bucket of its own, 5 per second per token per guild: a sixth kick at once is a 429, another token’s is not', async () => {
		const batch = targets.splice(0, 7);
		for (const [i, id] of batch.slice(0, 5).entries()) {
			const response = await kick(sandbox.workerTokens[1]!, id);
			expect(response.status).toBe(204);
			expect(response.headers.get('x-ratelimit-limit')).toBe('5');
			expect(response.headers.get('x-ratelimit-remaining')).toBe(String(4 - i));
		}
		const limited = await kick(sandbox.workerTokens[1]!, batch[5]!);
		expect(limited.status).toBe(429);
		expect(limited.headers.get('x-ratelimit-scope')).toBe('user');
		expect(sandbox.state.memberIndex(sandbox.guildId, batch[5]!)).not.toBe(-1);
		expect((await kick(sandbox.bossToken, batch[6]!, 'another token')).status).toBe(204);
	});
});
