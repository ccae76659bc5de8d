import { describe, expect, it } from 'vitest';
import { ListedIdsTally } from '../../../../src/jobs/job/ListedIdsTally.js';

const ids = ['175928847299117063', '980000000000000001', '1100000000000000000', '1250000000000000002'];

describe('ListedIdsTally', () => {
	it('counts the listed ids members had, each once, and ignores the others', () => {
		const tally = new ListedIdsTally(ids);
		for (const id of ['1100000000000000000', '175928847299117063', '1100000000000000000', '1300000000000000000', '17592884729911706']) tally.met(id);
		expect(tally.total).toBe(4);
		expect(tally.found).toBe(2);
	});

	it('says which are not members only once the listing went through the whole guild', () => {
		const tally = new ListedIdsTally(ids);
		tally.met(ids[3]!);
		expect(tally.notMembers).toBeUndefined();
		expect(tally.notMet()).toBeUndefined();
		tally.listingComplete();
		expect(tally.notMembers).toBe(3);
		expect(tally.notMet()).toEqual([ids[0], ids[1], ids[2]]);
		// A listed user who joins after the listing is a member after all.
		tally.met(ids[0]!);
		expect(tally.notMet()).toEqual([ids[1], ids[2]]);
	});

	it('finds every id of a long list, the first and the last too', () => {
		const many = Array.from({ length: 10_001 }, (_, i) => String(1_000_000_000_000_000_000n + BigInt(i * 7)));
		const tally = new ListedIdsTally(many);
		for (const id of many) tally.met(id);
		tally.met(String(1_000_000_000_000_000_000n + 1n));
		tally.listingComplete();
		expect(tally.notMembers).toBe(0);
	});
});
