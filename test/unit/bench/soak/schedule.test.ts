import { describe, expect, it } from 'vitest';
import { Random } from '@massnick/discord-sandbox';
import { countOf, describeSchedule, soakSchedule } from '../../../../bench/soak/schedule.js';

describe('the soak’s schedule', () => {
	it('one seed gives one schedule, and the guild’s life goes on from the same point of the generator', () => {
		const [one, two] = [new Random(20261201), new Random(20261201)];
		expect(soakSchedule(one)).toEqual(soakSchedule(two));
		expect(one.next()).toBe(two.next());
		expect(soakSchedule(new Random(1))).not.toEqual(soakSchedule(new Random(2)));
	});

	it('each job gets its faults in order of the share done, the revoked token at 85% of the rename', () => {
		for (const seed of [1, 2, 3, 20261201]) {
			const schedule = soakSchedule(new Random(seed));
			for (const faults of [schedule.rename, schedule.restore, schedule.massrole]) {
				expect(faults.map(({ at }) => at)).toEqual(faults.map(({ at }) => at).sort((a, b) => a - b));
				for (const { at } of faults) expect(at > 0 && at < 1, `${at} is a share`).toBe(true);
			}
			expect(schedule.rename).toContainEqual({ at: 0.85, fault: 'worker token revoked' });
			expect(countOf(schedule, 'SIGKILL, restart under 5xx')).toBe(4);
			expect(countOf(schedule, 'SIGKILL, restart with the journal disk full')).toBe(1);
			expect(schedule.massrole.map(({ fault }) => fault).slice(-2)).toEqual(['its role moved above the workers', 'its role deleted']);
		}
	});

	it('is printed a line a phase, each fault at its share in percent', () => {
		const schedule = soakSchedule(new Random(7));
		const lines = describeSchedule(schedule);
		expect(lines[0]).toBe('  always: members join (3/s), leave (2/s) and rename themselves (1/s)');
		expect(lines[1]).toContain(`${Math.round(schedule.rename[0]!.at * 100)}% ${schedule.rename[0]!.fault}; `);
		expect(lines[1]).toMatch(/; then the rerun without the revoked token$/);
		expect(lines[3]).toMatch(/^ {2}massrole: .+ \(after the move, the operator runs it again\)$/);
	});
});
