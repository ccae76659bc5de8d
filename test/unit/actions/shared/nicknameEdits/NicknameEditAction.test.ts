import { PermissionFlagsBits, type REST, Routes } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { holdsNickname, NicknameEditAction } from '../../../../../src/actions/shared/nicknameEdits/index.js';
import type { MemberRecord } from '../../../../../src/discord/MemberRecord.js';
import type { GuildContext } from '../../../../../src/jobs/GuildContext.js';
import type { ActionWords } from '../../../../../src/jobs/MassAction.js';
import { DONE, type Plan } from '../../../../../src/jobs/Plan.js';

const GUILD = '100000000000000000';
const OWNER = '100000000000000001';
const ROLE_HIGH = '200000000000000009';

const ctx: GuildContext = {
	guildId: GUILD,
	ownerId: OWNER,
	rolePositions: new Map([
		[GUILD, 0],
		[ROLE_HIGH, 9],
	]),
	botUserIds: new Set(),
	workerHighestPosition: 5,
	administratorRoleIds: new Set(),
};

function member(overrides: Partial<MemberRecord> = {}): MemberRecord {
	return { id: '300000000000000001', username: 'alice', globalName: 'Alice', nick: null, roles: [], bot: false, ...overrides };
}

/** The smallest action on the shared base: it plans nothing of its own. */
class Nothing extends NicknameEditAction {
	readonly type = 'test-nothing';
	readonly target = 'nothing';
	readonly words: ActionWords = { doing: 'Doing nothing', undoing: 'Undoing nothing', changed: 'touched', holds: 'nothing' };
	plan(): Plan {
		return DONE;
	}
}

describe('holdsNickname', () => {
	it('a nickname is held when it is the one Discord stores', () => {
		expect(holdsNickname(member({ nick: '🎃 Alice' }), '🎃 Alice')).toBe(true);
		expect(holdsNickname(member({ nick: '🎃 Alice' }), 'Alice')).toBe(false);
		expect(holdsNickname(member({ nick: null }), null)).toBe(true);
	});

	it('no nickname holds the username too: Discord stores a nickname equal to it as none', () => {
		expect(holdsNickname(member({ nick: null }), 'alice')).toBe(true);
		expect(holdsNickname(member({ nick: null }), 'Alice')).toBe(false);
	});
});

describe('NicknameEditAction', () => {
	it('every nickname action needs Manage Nicknames and reads the done marker from the nickname', () => {
		const action = new Nothing();
		expect(action.permission).toBe(PermissionFlagsBits.ManageNicknames);
		expect(action.holds(member({ nick: 'x' }), 'x')).toBe(true);
		expect(action.holds(member({ nick: 'x' }), null)).toBe(false);
	});

	it('the owner and members ranked at or above the workers are out of reach; others are not', () => {
		const action = new Nothing();
		expect(action.outOfReach(member({ id: OWNER }), ctx)).toBe('owner');
		expect(action.outOfReach(member({ roles: [ROLE_HIGH] }), ctx)).toBe('hierarchy');
		expect(action.outOfReach(member(), ctx)).toBeUndefined();
	});

	it('a change is one Modify Guild Member with the nickname, the reason and the signal', async () => {
		const sent: Array<{ route: string; options: unknown }> = [];
		const rest = {
			patch: async (route: string, options: unknown) => {
				sent.push({ route, options });
				return {};
			},
		} as unknown as REST;
		const signal = new AbortController().signal;
		await new Nothing().apply({ rest, guildId: GUILD }, '300000000000000001', null, { reason: 'because', signal });
		expect(sent).toEqual([{ route: Routes.guildMember(GUILD, '300000000000000001'), options: { body: { nick: null }, reason: 'because', signal } }]);
	});
});
