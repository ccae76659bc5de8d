import { describe, expect, it } from 'vitest';
import { rulesMessage } from '../../../../src/boss/status/showRules.js';

const line = (n: number): string =>
	`• **Adding @Role${n}** (\`20261203T120000Z-role-add-${n}\`) by moderator.name since <t:1796300000:R>, following joins: applied 1,234 · already done 5,678 · can't 0 · until /cancel`;

describe("/status's message of the standing rules", () => {
	it('lists every rule that fits, in order', () => {
		const text = rulesMessage([line(1), line(2)]);
		expect(text).toContain('**Standing rules** (2)');
		expect(text.indexOf('Role1')).toBeLessThan(text.indexOf('Role2'));
		expect(text).not.toContain('more, with no room here');
	});

	it('stays within the 2,000 characters of one message with 20 rules, counting those it leaves out', () => {
		const lines = Array.from({ length: 20 }, (_, n) => line(n + 1));
		const text = rulesMessage(lines);
		expect(text.length).toBeLessThanOrEqual(2_000);
		const shown = lines.filter((entry) => text.includes(entry)).length;
		expect(shown).toBeGreaterThan(0);
		expect(shown).toBeLessThan(20);
		expect(text).toContain(`…and ${20 - shown} more, with no room here`);
		expect(text).toContain('**Standing rules** (20)');
	});
});
