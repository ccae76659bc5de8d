import { describe, expect, it } from 'vitest';
import { bossGuildContext, type BossGuildContextInput } from '../../../src/boss/bossGuildContext.js';
import type { MemberRecord } from '../../../src/discord/MemberRecord.js';
import { outOfReach } from '../../../src/jobs/GuildContext.js';

const GUILD = '281552638070228032';
const roles = new Map([
	[GUILD, 0],
	['1000000000000000001', 1],
	['1000000000000000005', 5],
	['1000000000000000008', 8],
]);

function member(id: string, held: string[]): MemberRecord {
	return { id, username: `user-${id}`, globalName: null, nick: null, roles: held, bot: false };
}

function context(input: Partial<BossGuildContextInput>) {
	return bossGuildContext({
		guildId: GUILD,
		ownerId: '1000000000000000100',
		rolePositions: roles,
		administratorRoleIds: new Set(),
		bossUserId: '1000000000000000200',
		workers: [],
		unknown: 0,
		...input,
	});
}

describe('bossGuildContext', () => {
	it('a boss holding every worker: our bots are the boss and the workers, reaching below the lowest of their positions', () => {
		const ctx = context({
			workers: [
				{ userId: '1000000000000000300', position: 8 },
				{ userId: '1000000000000000301', position: 5 },
			],
		});
		expect([...ctx.botUserIds].sort()).toEqual(['1000000000000000200', '1000000000000000300', '1000000000000000301']);
		expect(ctx.workerHighestPosition).toBe(5);
	});

	it('a stopped worker of this process is still one of our bots, but its position no longer counts; with none left, nobody is reached', () => {
		expect(context({ workers: [{ userId: '1000000000000000300' }, { userId: '1000000000000000301', position: 8 }] }).workerHighestPosition).toBe(8);
		const ctx = context({ workers: [{ userId: '1000000000000000300' }] });
		expect(ctx.workerHighestPosition).toBe(0);
		expect(outOfReach(member('1000000000000000400', []), ctx)).toBe('hierarchy');
	});

	it("a worker of another process counts by its bot's roles now: the highest of them, @everyone alone at 0", () => {
		const elsewhere = (held: string[]) => context({ workers: [{ userId: '1000000000000000302', roles: held }] });
		expect(elsewhere(['1000000000000000001', '1000000000000000008']).workerHighestPosition).toBe(8);
		expect(elsewhere([]).workerHighestPosition).toBe(0);
		expect(elsewhere(['1000000000000000999']).workerHighestPosition).toBe(0);
		const mixed = context({
			workers: [
				{ userId: '1000000000000000300', position: 8 },
				{ userId: '1000000000000000302', roles: ['1000000000000000005'] },
			],
		});
		expect(mixed.workerHighestPosition).toBe(5);
		expect(mixed.botUserIds.has('1000000000000000302')).toBe(true);
	});

	it('a bot of another process that is not in the guild ranks nobody out', () => {
		const ctx = context({
			workers: [
				{ userId: '1000000000000000300', position: 8 },
				{ userId: '1000000000000000302', roles: null },
			],
		});
		expect(ctx.workerHighestPosition).toBe(8);
	});

	it('with only workers the boss does not know, their reach is unknown: nobody but the owner is out of reach', () => {
		const ctx = context({ unknown: 4 });
		expect(ctx.workerHighestPosition).toBe(Number.POSITIVE_INFINITY);
		expect([...ctx.botUserIds]).toEqual(['1000000000000000200']);
		expect(outOfReach(member('1000000000000000400', ['1000000000000000008']), ctx)).toBeUndefined();
		expect(outOfReach(member('1000000000000000100', []), ctx)).toBe('owner');
		// Beside workers it knows, the unknown ones change nothing: the known positions decide.
		expect(context({ unknown: 2, workers: [{ userId: '1000000000000000302', roles: ['1000000000000000005'] }] }).workerHighestPosition).toBe(5);
	});
});
