import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raidStack } from '../support/raidStack.js';
import type { Stack } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

describe('/massban preview', () => {
	let stack: Stack;
	let raidIds: string[];
	let moderator: string;

	beforeAll(async () => {
		let roleId: (name: string) => string;
		({ stack, roleId } = await raidStack({
			members: 300,
			workers: 4,
			settings: (config) => ({ ...config, preview: { timeoutSeconds: 60, skipBelowMembers: 0 } }),
		}));
		({ raidIds } = await stack.control.stageRaid(stack.sandbox.guildId, { count: 30 }));
		moderator = (await stack.control.members(stack.sandbox.guildId)).find((member) => member.roles.includes(roleId('Moderator')))!.id;
		await stack.control.editRole(stack.sandbox.guildId, roleId('Moderator'), {
			permissions: ['ManageNicknames', 'KickMembers', 'BanMembers', 'ManageMessages', 'ModerateMembers', 'ViewAuditLog', 'ManageGuild'],
		});
	});

	afterAll(async () => {
		await stack?.close();
	});

	const previewText = (shown: { message: { embeds: unknown[] } }): string => (shown.message.embeds[0] as { description?: string }).description ?? '';

	it('previews a ban of everyone in reach with real members’ lines and the bulk ban’s pace, and Cancel bans nobody', async () => {
		const shown = await stack.preview('massban', {}, moderator);
		const text = previewText(shown);
		expect(text).toContain('**Banning members** for every member.');
		expect(text).toMatch(/• @\S+ .*is banned/);
		// 4 workers at one bulk ban of 200 a second each, not one ban a second.
		expect(text).toContain('4 workers at about 800 changes a second together');
		expect(text).toMatch(/can't 2–\d+ \(the owner/);
		const owner = (await stack.control.members(stack.sandbox.guildId)).find((member) => member.id === stack.sandbox.ownerId)!;
		expect(text).not.toContain(`@${owner.username}`);
		await stack.press(shown.message.id, shown.cancel, moderator);
		await waitUntil(async () => /Cancelled/.test(previewText({ message: await stack.control.message(stack.sandbox.channelId, shown.message.id) })), {
			what: 'the preview to say it was cancelled',
		});
		expect(stack.sandbox.state.bans.size).toBe(0);
	});

	it('Start on an aimed preview bans the raid accounts and nobody else', async () => {
		const previous = stack.massnick.jobs.last;
		const shown = await stack.preview('massban', { joined_after: '15m', name_matches: '/free nitro/' }, moderator);
		await stack.press(shown.message.id, shown.start, moderator);
		await waitUntil(() => stack.massnick.jobs.last !== previous && stack.massnick.jobs.current === undefined, { what: '/massban to end' });
		expect(stack.massnick.jobs.last!.result?.state).toBe('finished');
		expect([...raidIds].every((id) => stack.sandbox.state.bans.has(BigInt(id)))).toBe(true);
		expect(stack.sandbox.state.bans.size).toBe(raidIds.length);
	});
});
