import { describe, expect, it } from 'vitest';
import { parseTemplate } from '../../../../src/actions/shared/nicknameEdits/index.js';
import { SanitizeAction } from '../../../../src/actions/sanitize/SanitizeAction.js';
import type { MemberRecord } from '../../../../src/discord/MemberRecord.js';
import { guildContext, OWNER_ID as OWNER } from '../../../support/guildContext.js';

const HIGH = '200000000000000009';

const ctx = guildContext({ roles: [[HIGH, 9]], botUserIds: ['9'], workerHighestPosition: 5 });

const action = new SanitizeAction(parseTemplate('{username}'));

function member(nick: string | null, globalName: string | null = null, username = 'bob', roles: string[] = []): MemberRecord {
	return { id: '300000000000000001', username, globalName, nick, roles, bot: false };
}

describe('SanitizeAction.plan', () => {
	it('cleans a decorated or hoisted nickname into a nickname', () => {
		expect(action.plan(member('!!! Bob'), ctx)).toEqual({ action: 'change', from: '!!! Bob', to: 'Bob' });
		expect(action.plan(member('𝐁𝐨𝐛 𝓣𝓱𝓮 𝓖𝓻𝓮𝓪𝓽'), ctx)).toEqual({ action: 'change', from: '𝐁𝐨𝐛 𝓣𝓱𝓮 𝓖𝓻𝓮𝓪𝓽', to: 'Bob The Great' });
	});

	it('cleans a decorated display name into a nickname when the member has none', () => {
		expect(action.plan(member(null, 'Ｂｏｂｂｙ'), ctx)).toEqual({ action: 'change', from: null, to: 'Bobby' });
	});

	it('leaves a clean shown name alone, in any script: a rerun changes nothing', () => {
		for (const shown of ['Bob', 'José', 'Дмитрий', '日本語の名前', 'Zoë 🎉']) expect(action.plan(member(shown), ctx)).toEqual({ action: 'done' });
		expect(action.plan(member(null, 'Alice'), ctx)).toEqual({ action: 'done' });
		expect(action.plan(member(null, null), ctx)).toEqual({ action: 'done' });
	});

	it('uses the fallback when nothing readable is left, and counts its expansion as done next time', () => {
		const guest = new SanitizeAction(parseTemplate('Member {id}'));
		const junk = member('★☆★');
		const plan = guest.plan(junk, ctx);
		expect(plan).toEqual({ action: 'change', from: '★☆★', to: 'Member 300000000000000001' });
		expect(guest.plan(member('Member 300000000000000001'), ctx)).toEqual({ action: 'done' });
	});

	it('clears the nickname when the cleaned name is the username and the display name is clean (Discord keeps no nickname equal to the username)', () => {
		expect(action.plan(member('!!!bob', 'Robert'), ctx)).toEqual({ action: 'change', from: '!!!bob', to: null });
		expect(action.plan(member(null, 'Robert'), ctx)).toEqual({ action: 'done' });
	});

	it('cleans the display name instead when clearing the nickname would show a decorated one', () => {
		expect(action.plan(member('!!!bob', '𝓡𝓸𝓫'), ctx)).toEqual({ action: 'change', from: '!!!bob', to: 'Rob' });
	});

	it('leaves alone, with a reason, a member whose only readable name is the username Discord would not keep', () => {
		expect(action.plan(member(null, '★★★'), ctx)).toEqual({ action: 'skip', reason: 'only-username-left' });
	});

	it("counts the owner and members above the workers as can't, sending nothing", () => {
		expect(action.plan({ ...member('!!!x'), id: OWNER }, ctx)).toEqual({ action: 'cant', reason: 'owner' });
		expect(action.plan(member('!!!x', null, 'bob', [HIGH]), ctx)).toEqual({ action: 'cant', reason: 'hierarchy' });
	});

	it('journals under its fallback, so a rerun with the same fallback appends to the same journal', () => {
		expect(action.type).toBe('sanitize');
		expect(action.target).toBe('{username}');
	});
});
