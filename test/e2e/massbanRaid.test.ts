import type { SandboxRequest } from '@massnick/discord-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BulkBanCall, raidStack } from '../support/raidStack.js';
import type { Stack } from '../support/startStack.js';

const WORKERS = 10;

/**
 * The bar, at its size: 2,000 raid accounts among 20,000 members (and 500 real people
 * joining in the same minutes), banned by a moderator's /massban aimed by join time and name,
 * and unbanned by /restore: every raid account and nobody else, no call over 200 ids, no 403, no 429.
 */
describe('/massban at the bar: 2,000 raid accounts among 20,000 members', () => {
	let stack: Stack;
	let calls: BulkBanCall[];
	let raidIds: string[];
	let moderator: string;

	const isBanned = (id: string): boolean => stack.sandbox.state.bans.has(BigInt(id));
	const refused = (requests: SandboxRequest[]) => requests.filter((request) => request.status === 403 || request.status === 429);

	beforeAll(async () => {
		let roleId: (name: string) => string;
		({ stack, calls, roleId } = await raidStack({ members: 18_000, workers: WORKERS }));
		({ raidIds } = await stack.control.stageRaid(stack.sandbox.guildId, { count: 2000, realJoiners: 500 }));
		const moderators = (await stack.control.members(stack.sandbox.guildId)).filter((member) => member.roles.includes(roleId('Moderator')));
		moderator = moderators[0]!.id;
		await stack.control.editRole(stack.sandbox.guildId, roleId('Moderator'), {
			permissions: ['ManageNicknames', 'KickMembers', 'BanMembers', 'ManageMessages', 'ModerateMembers', 'ViewAuditLog', 'ManageGuild'],
		});
	}, 120_000);

	afterAll(async () => {
		await stack?.close();
	});

	it('bans every raid account and no other member, in calls of at most 200, with no 403 or 429; /restore unbans exactly them', async () => {
		const members = stack.sandbox.state.members.length;
		expect(members).toBeGreaterThanOrEqual(20_000);
		const { lastSeq } = await stack.control.requests();
		const job = await stack.runJob('massban', { joined_after: '15m', name_matches: '/free nitro/' }, moderator);
		expect(job.result?.state).toBe('finished');
		const { requests, lastSeq: afterBan } = await stack.control.requests(lastSeq);
		expect(refused(requests)).toEqual([]);
		expect(calls.every((call) => call.ids.length <= 200)).toBe(true);
		expect(calls.length).toBeGreaterThanOrEqual(2000 / 200);
		expect(calls.flatMap((call) => call.ids).sort()).toEqual([...raidIds].sort());
		expect(stack.sandbox.state.bans.size).toBe(2000);
		expect(raidIds.every(isBanned)).toBe(true);

		const restore = await stack.runJob('restore', {}, moderator);
		expect(restore.result?.state).toBe('finished');
		const { requests: undo } = await stack.control.requests(afterBan);
		expect(refused(undo)).toEqual([]);
		const unbanned = undo.filter((request) => request.method === 'DELETE' && request.route === '/guilds/:id/bans/:id').map((request) => request.targetId);
		expect(unbanned.sort()).toEqual([...raidIds].sort());
		expect(stack.sandbox.state.bans.size).toBe(0);
	}, 120_000);
});
