import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JoinerReconciler, RECENT_PAGES } from '../../../../src/jobs/job/JoinerReconciler.js';

interface Member {
	readonly id: string;
}

/** What happens during a run, in order: a page handed out, a join event, the listing's end. */
type Step = { page: string[] } | { joined: string } | 'end';

/** Replays `steps` and answers, for each member the reconciler assigned, at which steps (by index). */
function replay(steps: readonly Step[], recentPages = RECENT_PAGES): Map<string, number[]> {
	const reconciler = new JoinerReconciler<Member>(recentPages);
	const assigned = new Map<string, number[]>();
	const assign = (members: readonly Member[], step: number): void => {
		for (const { id } of members) assigned.set(id, [...(assigned.get(id) ?? []), step]);
	};
	steps.forEach((step, index) => {
		if (step === 'end') assign(reconciler.listingEnded(), index);
		else if ('page' in step) assign(reconciler.listed(step.page), index);
		else if (reconciler.joined({ id: step.joined })) assign([{ id: step.joined }], index);
	});
	return assigned;
}

/** Ids `from` to `to`, as a page lists them. */
const page = (from: number, to: number): { page: string[] } => ({ page: Array.from({ length: to - from + 1 }, (_, i) => String(from + i)) });

describe('JoinerReconciler', () => {
	it('a joiner the listing has yet to reach is left to it when their page holds them', () => {
		expect(replay([page(1, 10), { joined: '15' }, page(11, 20), 'end'])).toEqual(new Map());
	});

	it('a joiner above the listing whom their page missed is assigned once the listing passes them', () => {
		// 15 joined after page 11–20 was read: it holds 11–14 and 16–20.
		const assigned = replay([page(1, 10), { joined: '15' }, { page: ['11', '12', '13', '14', '16', '17'] }, page(18, 20), 'end']);
		expect(assigned).toEqual(new Map([['15', [2]]]));
	});

	it('a joiner past the guild’s last member is assigned when the listing ends', () => {
		expect(replay([page(1, 10), { joined: '99' }, page(11, 20), 'end'])).toEqual(new Map([['99', [3]]]));
	});

	it('a joiner the listing has passed (an old account joining now) is assigned at once', () => {
		expect(replay([{ page: ['1', '2', '4'] }, { joined: '3' }, 'end'])).toEqual(new Map([['3', [1]]]));
	});

	it('a late join event for a member a recent page held assigns nobody', () => {
		expect(replay([page(1, 10), page(11, 20), { joined: '5' }, 'end', { joined: '12' }])).toEqual(new Map());
	});

	it('remembers only the last pages: a join event later than that is taken for a new member', () => {
		const pages = Array.from({ length: 3 }, (_, i) => page(i * 10 + 1, i * 10 + 10));
		expect(replay([...pages, { joined: '5' }, { joined: '15' }, 'end'], 2)).toEqual(new Map([['5', [3]]]));
	});

	it('after the listing ends a joiner is assigned at once, whatever their id', () => {
		expect(replay([page(1, 10), 'end', { joined: '50' }, { joined: '7' }])).toEqual(new Map([['50', [2]]]));
	});

	it('tells where the listing has reached and forgets its pages when cleared', () => {
		const reconciler = new JoinerReconciler<Member>();
		expect(reconciler.joined({ id: '15' })).toBe(false);
		reconciler.listed(['1', '2', '30']);
		expect(reconciler.listedUpTo).toBe(30n);
		expect(reconciler.listingDone).toBe(false);
		reconciler.clear();
		expect(reconciler.listingEnded()).toEqual([]);
		expect(reconciler.listingDone).toBe(true);
		expect(reconciler.joined({ id: '2' })).toBe(true);
	});
});

/**
 * A run: the guild's ids in pages of `pageSize`, and the joiners, each with the step of its
 * join event (after `slot` pages; `pages + 1` is after the listing's end) and whether a page
 * lists them (they joined before it was read).
 */
const run = fc
	.record({
		ids: fc.uniqueArray(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 80 }),
		pageSize: fc.integer({ min: 1, max: 8 }),
		recentPages: fc.integer({ min: 1, max: 4 }),
	})
	.chain(({ ids, pageSize, recentPages }) =>
		fc.record({
			pageSize: fc.constant(pageSize),
			recentPages: fc.constant(recentPages),
			members: fc.tuple(...ids.map((id) => fc.record({ id: fc.constant(String(id)), listed: fc.boolean(), joins: fc.boolean(), slot: fc.nat({ max: 40 }) }))),
		}),
	)
	.map(({ pageSize, recentPages, members }) => {
		const listed = members.filter((member) => member.listed).sort((a, b) => Number(a.id) - Number(b.id));
		const pages = Array.from({ length: Math.ceil(listed.length / pageSize) }, (_, p) => listed.slice(p * pageSize, (p + 1) * pageSize).map(({ id }) => id));
		const joiners = members.filter((member) => member.joins || !member.listed).map((member) => ({ ...member, slot: member.slot % (pages.length + 2) }));
		const steps: Step[] = [];
		for (let slot = 0; slot <= pages.length + 1; slot++) {
			if (slot === pages.length + 1) steps.push('end');
			for (const joiner of joiners.filter((joiner) => joiner.slot === slot)) steps.push({ joined: joiner.id });
			const next = pages[slot];
			if (next) steps.push({ page: next });
		}
		return { pages, joiners, steps, recentPages };
	});

describe('JoinerReconciler, for any interleaving of pages and join events', () => {
	it('assigns each joiner at most once, each one no page listed exactly once, and none a page listed while the window holds it', () => {
		fc.assert(
			fc.property(run, ({ pages, joiners, steps }) => {
				// A window as long as the run: every late event is recognised.
				const assigned = replay(steps, Math.max(1, pages.length));
				const listed = new Set(pages.flat());
				for (const { id } of joiners) expect(assigned.get(id)?.length ?? 0).toBe(listed.has(id) ? 0 : 1);
				expect([...assigned.keys()].every((id) => joiners.some((joiner) => joiner.id === id))).toBe(true);
			}),
			{ seed: 24, numRuns: 1_000 },
		);
	});

	it('assigns a joiner when the listing has passed them without listing them, and no earlier', () => {
		fc.assert(
			fc.property(run, ({ pages, joiners, steps, recentPages }) => {
				const assigned = replay(steps, recentPages);
				const stepOfPage = (p: number): number => steps.findIndex((step) => step !== 'end' && 'page' in step && step.page === pages[p]);
				const end = steps.indexOf('end');
				const expected = new Map<string, number[]>();
				for (const { id, slot } of joiners) {
					const at = steps.findIndex((step) => step !== 'end' && 'joined' in step && step.joined === id);
					const pagesListed = Math.min(slot, pages.length);
					const pageOf = pages.findIndex((ids) => ids.includes(id));
					if (pageOf >= 0) {
						// Listed: a late event past the window is taken for a new member.
						if (pageOf < pagesListed - recentPages) expected.set(id, [at]);
						continue;
					}
					const passed = pagesListed > 0 && Number(pages[pagesListed - 1]!.at(-1)) >= Number(id);
					if (slot > pages.length || passed) {
						expected.set(id, [at]);
						continue;
					}
					const reaching = pages.findIndex((ids, p) => p >= pagesListed && Number(ids.at(-1)) >= Number(id));
					expected.set(id, [reaching >= 0 ? stepOfPage(reaching) : end]);
				}
				expect(assigned).toEqual(expected);
			}),
			{ seed: 24, numRuns: 1_000 },
		);
	});
});

/**
 * Replays `steps` for a listing that may wait (`atOnce`), as `listInto` drives it: each page hands
 * out what no join event took already. Answers, for each member, at which steps it was assigned,
 * by the listing or by its join event.
 */
function replayAtOnce(steps: readonly Step[]): Map<string, number[]> {
	const reconciler = new JoinerReconciler<Member>(RECENT_PAGES, true);
	const assigned = new Map<string, number[]>();
	const assign = (ids: readonly string[], step: number): void => {
		for (const id of ids) assigned.set(id, [...(assigned.get(id) ?? []), step]);
	};
	steps.forEach((step, index) => {
		if (step === 'end')
			assign(
				reconciler.listingEnded().map(({ id }) => id),
				index,
			);
		else if ('page' in step) {
			assign(
				step.page.filter((id) => !reconciler.takenAlready(id)),
				index,
			);
			assign(
				reconciler.listed(step.page).map(({ id }) => id),
				index,
			);
		} else if (reconciler.joined({ id: step.joined })) assign([step.joined], index);
	});
	return assigned;
}

describe('JoinerReconciler at once (a listing that may wait)', () => {
	it('assigns a joiner above the listing at once, and the page that holds them later skips them', () => {
		const assigned = replayAtOnce([page(1, 10), { joined: '15' }, page(11, 20), 'end']);
		expect(assigned.get('15')).toEqual([1]);
		for (let id = 1; id <= 20; id++) expect(assigned.get(String(id)), String(id)).toHaveLength(1);
	});

	it('assigns nobody twice for a join event after the page that held them', () => {
		expect(replayAtOnce([page(1, 10), page(11, 20), { joined: '15' }, 'end']).get('15')).toEqual([1]);
	});

	it('forgets a joiner once the listing passes them without a page holding them', () => {
		// A page holding 15 after the listing passed it (only a listing gone back could) is not skipped.
		expect(replayAtOnce([page(1, 10), { joined: '15' }, { page: ['11', '16'] }, { page: ['15'] }]).get('15')).toEqual([1, 3]);
	});
});
