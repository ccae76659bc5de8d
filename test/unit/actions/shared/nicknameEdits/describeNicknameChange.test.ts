import { describe, expect, it } from 'vitest';
import { describeNicknameChange } from '../../../../../src/actions/shared/nicknameEdits/index.js';
import type { MemberRecord } from '../../../../../src/discord/MemberRecord.js';

const member = (username: string): MemberRecord => ({ id: '300000000000000001', username, globalName: null, nick: null, roles: [], bot: false });

describe('describeNicknameChange', () => {
	it('shows the member, the nickname before and after, in quotes', () => {
		expect(describeNicknameChange(member('alice'), 'Alice', '🎃 Alice')).toBe('@alice: “Alice” → “🎃 Alice”');
	});

	it('no nickname is said in words, on either side', () => {
		expect(describeNicknameChange(member('alice'), null, 'x')).toBe('@alice: (no nickname) → “x”');
		expect(describeNicknameChange(member('alice'), 'x', null)).toBe('@alice: “x” → (no nickname)');
	});

	it('Markdown in a name or nickname is escaped, so a preview shows it as typed', () => {
		expect(describeNicknameChange(member('a_b_'), '*bold*', null)).toBe('@a\\_b\\_: “\\*bold\\*” → (no nickname)');
	});
});
