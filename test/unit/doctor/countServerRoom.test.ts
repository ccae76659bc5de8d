import type { APIRole } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { countServerRoom } from '../../../src/doctor/countServerRoom.js';
import { BOSS_ID, bossFacts, guildFacts, managedRole, ROLES, WORKER_IDS, workerFacts } from './facts.js';

const ours = [bossFacts(), workerFacts(0), workerFacts(1)];

/** `count` other bots' managed roles, from position `from` up. */
function otherBotRoles(count: number, from = 5): APIRole[] {
	return Array.from({ length: count }, (_, n) =>
		managedRole(String(400000000000000000n + BigInt(n)), `Bot ${n}`, from + n, { bot_id: String(500000000000000000n + BigInt(n)) }),
	);
}

/** `count` plain roles nobody manages. */
function plainRoles(count: number): APIRole[] {
	return Array.from({ length: count }, (_, n) => ({ ...ROLES.member, id: String(600000000000000000n + BigInt(n)), name: `Role ${n}`, position: 5 + n }));
}

describe('countServerRoom', () => {
	it('counts our bots by id, other bots by their managed roles, and an integration once however many roles it has', () => {
		const twitch = { integration_id: '700000000000000001' };
		const guild = guildFacts({
			roles: [
				...Object.values(ROLES),
				// In Discord our bots have managed roles too: they are not counted twice.
				managedRole('400000000000000100', 'Boss App', 5, { bot_id: BOSS_ID }),
				...otherBotRoles(2, 6),
				managedRole('400000000000000200', 'Twitch Subscriber', 8, twitch),
				managedRole('400000000000000201', 'Twitch Subscriber: Tier 2', 9, twitch),
				// The booster role is managed but no integration.
				managedRole('400000000000000300', 'Server Booster', 10, { premium_subscriber: null }),
			],
		});
		expect(countServerRoom(guild, ours)).toEqual({
			ours: { boss: true, workers: 2 },
			otherBots: 2,
			bots: 5,
			otherIntegrations: 1,
			integrations: 6,
			roles: 11,
			toAdd: 0,
			moreBots: 44,
			limitedBy: 'integrations',
		});
	});

	it('48 bots in the server leave room for 2 more', () => {
		const room = countServerRoom(guildFacts({ roles: [...Object.values(ROLES), ...otherBotRoles(45)] }), ours);
		expect(room).toMatchObject({ integrations: 48, roles: 50, moreBots: 2, limitedBy: 'integrations' });
	});

	it('roles are the tighter limit when the server has 248 of 250', () => {
		const room = countServerRoom(guildFacts({ roles: [...Object.values(ROLES), ...plainRoles(243)] }), ours);
		expect(room).toMatchObject({ integrations: 3, roles: 248, moreBots: 2, limitedBy: 'roles' });
	});

	it('a server past 50 integrations (Discord did not apply the limit retroactively) has no room, never less', () => {
		const room = countServerRoom(guildFacts({ roles: [...Object.values(ROLES), ...otherBotRoles(60)] }), ours);
		expect(room).toMatchObject({ integrations: 63, moreBots: 0 });
	});

	it('a configured bot outside the server is to be added; one that could not be checked counts on neither side', () => {
		const bots = [bossFacts(), workerFacts(0, { memberRoles: null }), workerFacts(1, { token: 'rejected', application: undefined, memberRoles: undefined })];
		const room = countServerRoom(guildFacts(), bots);
		expect(room).toMatchObject({ ours: { boss: true, workers: 0 }, integrations: 1, toAdd: 1, moreBots: 49 });
	});

	it('a worker of ours whose own check failed, seen by its managed role, is counted once and not as another bot', () => {
		const guild = guildFacts({ roles: [...Object.values(ROLES), managedRole('400000000000000101', 'Worker App 1', 5, { bot_id: WORKER_IDS[1] })] });
		const room = countServerRoom(guild, [bossFacts(), workerFacts(0), workerFacts(1, { memberRoles: undefined, failure: 'Discord answered 500' })]);
		expect(room).toMatchObject({ ours: { boss: true, workers: 1 }, otherBots: 0, bots: 3, integrations: 3, toAdd: 0 });
	});
});
