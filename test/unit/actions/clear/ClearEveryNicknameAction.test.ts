import { describe, expect, it } from 'vitest';
import { ClearEveryNicknameAction } from '../../../../src/actions/clear/ClearEveryNicknameAction.js';
import type { MemberRecord } from '../../../../src/discord/MemberRecord.js';
import { ABOVE_REQUESTER, forRequester } from '../../../../src/jobs/GuildContext.js';
import { guildContext, OWNER_ID as OWNER } from '../../../support/guildContext.js';

const MID = '200000000000000005';
const HIGH = '200000000000000009';
const ctx = guildContext({
	roles: [
		[MID, 3],
		[HIGH, 9],
	],
	botUserIds: ['9'],
	workerHighestPosition: 5,
});
const action = new ClearEveryNicknameAction();
const member = (nick: string | null, roles: string[] = [], id = '300000000000000001'): MemberRecord => ({
	id,
	username: 'bob',
	globalName: 'Bob',
	nick,
	roles,
	bot: false,
});

describe('ClearEveryNicknameAction.plan', () => {
	it('clears a nickname, and a member without one is done: a rerun sends nothing', () => {
		expect(action.plan(member('Bobby'), ctx)).toEqual({ action: 'change', from: 'Bobby', to: null });
		expect(action.plan(member(null), ctx)).toEqual({ action: 'done' });
	});

	it('counts the owner, members above the workers and members at or above the requester as out of reach', () => {
		expect(action.plan(member('x', [], OWNER), ctx)).toEqual({ action: 'cant', reason: 'owner' });
		expect(action.plan(member('x', [HIGH]), ctx)).toEqual({ action: 'cant', reason: 'hierarchy' });
		const helper = forRequester(ctx, { kind: 'member', userId: '4', position: 1, roleName: 'Helper' });
		expect(action.plan(member('x', [MID]), helper)).toEqual({ action: 'cant', reason: ABOVE_REQUESTER });
	});

	it('holds "no nickname" for a restore: back to the journaled nickname only where none was set since', () => {
		expect(action.holds(member(null), null)).toBe(true);
		expect(action.holds(member('new'), null)).toBe(false);
		expect(action.holds(member('Bobby'), 'Bobby')).toBe(true);
	});
});
