import { describe, expect, it } from 'vitest';
import type { RequesterRank } from '../../../../src/jobs/RequesterRank.js';
import { isDemoted } from '../../../../src/jobs/resume/isDemoted.js';

const ALICE = '300000000000000001';
const MOD = '200000000000000003';
const mod: RequesterRank = { kind: 'member', userId: ALICE, position: 3, roleName: 'Mod', roleId: MOD };
const helper: RequesterRank = { kind: 'member', userId: ALICE, position: 1, roleName: 'Helper', roleId: '200000000000000001' };

describe('a demotion', () => {
	it('compares with the old role where it is now, so a role added or deleted below it moves nothing', () => {
		// Mod was at 3 when they started; a role below it was deleted, so Mod is at 2 now.
		const before: RequesterRank = { ...mod, position: 3 };
		expect(isDemoted(before, { ...mod, position: 2 }, (id) => (id === MOD ? 2 : undefined))).toBe(false);
		expect(isDemoted(before, { ...helper, position: 1 }, (id) => (id === MOD ? 2 : undefined))).toBe(true);
	});

	it('compares with the old position when the old role is gone', () => {
		expect(isDemoted(mod, { ...helper, position: 2 }, () => undefined)).toBe(true);
		expect(isDemoted(mod, { ...helper, position: 3 }, () => undefined)).toBe(false);
	});

	it('never for someone who is the owner now; always for an owner who is a member now', () => {
		expect(isDemoted(mod, { kind: 'owner', userId: ALICE }, () => 3)).toBe(false);
		expect(isDemoted({ kind: 'owner', userId: ALICE }, mod, () => 3)).toBe(true);
	});
});
