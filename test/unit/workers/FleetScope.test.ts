import { describe, expect, it } from 'vitest';
import { chooseFleetScope } from '../../../src/workers/chooseFleetScope.js';
import { HoldsEveryWorker } from '../../../src/workers/HoldsEveryWorker.js';
import { HoldsSomeWorkers } from '../../../src/workers/HoldsSomeWorkers.js';

describe('chooseFleetScope', () => {
	it('holding as many workers as there are is every worker; fewer, or none, is some', () => {
		expect(chooseFleetScope(4, [0, 1, 2, 3])).toBeInstanceOf(HoldsEveryWorker);
		expect(chooseFleetScope(1, [0])).toBeInstanceOf(HoldsEveryWorker);
		expect(chooseFleetScope(10, [3, 4, 5])).toBeInstanceOf(HoldsSomeWorkers);
		expect(chooseFleetScope(4, [])).toBeInstanceOf(HoldsSomeWorkers);
	});

	it('keeps the split and the ids it holds', () => {
		expect([chooseFleetScope(3, [0, 1, 2]).count, chooseFleetScope(3, [0, 1, 2]).ids]).toEqual([3, [0, 1, 2]]);
		expect([chooseFleetScope(10, [3, 5]).count, chooseFleetScope(10, [3, 5]).ids]).toEqual([10, [3, 5]]);
	});
});

describe('a process holding every worker', () => {
	const all = chooseFleetScope(10, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);

	it('names no worker ids in its logs and leaves no member to anyone', () => {
		expect(all.logFields()).toEqual({});
		expect(all.leftToOthers()).toEqual([]);
	});

	it('says how many workers it runs with', () => {
		expect(all.describeHere()).toBe('10 workers');
		expect(all.describeHere('anything')).toBe('10 workers');
		expect(all.withWorkers()).toBe(', with all 10 workers');
	});

	it('may resume, and never looks at other processes', () => {
		let looked = false;
		expect(all.whyNoResume()).toBeUndefined();
		expect(
			all.elsewhere(() => {
				looked = true;
				return 'found';
			}),
		).toBeUndefined();
		expect(looked).toBe(false);
	});

	it('journals a new job in one whole-guild file, and keeps every file of any split', () => {
		expect(all.newJournalFiles()).toEqual([undefined]);
		expect([undefined, 0, 9, 42].map((id) => all.keepsJournalOf(id))).toEqual([true, true, true, true]);
		expect([all.journalsSplitOf(10), all.journalsSplitOf(3)]).toEqual([true, true]);
		expect(all.journaledWorkers(3)).toEqual([0, 1, 2]);
	});

	it('restores without the files another part of a fleet kept', () => {
		expect(all.neededToRestore([1, 2])).toEqual([]);
	});
});

describe('a process holding some of the workers', () => {
	const some = chooseFleetScope(10, [3, 4, 5]);

	it('names its workers and the split in its logs', () => {
		expect(some.logFields()).toEqual({ workerIds: [3, 4, 5], workerCount: 10 });
	});

	it('says which workers are here and that the others run elsewhere', () => {
		expect(some.describeHere()).toBe('workers 3–5 of 10 here; the others run elsewhere');
		expect(some.describeHere("the others run elsewhere, each on its own workers' members")).toBe(
			"workers 3–5 of 10 here; the others run elsewhere, each on its own workers' members",
		);
		expect(some.withWorkers()).toBe('');
		expect(some.leftToOthers()).toEqual(['This process holds workers 3–5 of 10: the members of the other 7 workers are left to the processes holding them.']);
		expect(chooseFleetScope(2, [1]).leftToOthers()).toEqual([
			'This process holds worker 1 of 2: the members of the other worker are left to the processes holding them.',
		]);
	});

	it('resumes nothing, saying why, and looks at what the other processes hold', () => {
		expect(some.whyNoResume()).toMatch(/holds only some of the workers, so it resumes nothing/);
		expect(some.elsewhere(() => 'found')).toBe('found');
	});

	it("journals a new job in one file per worker it holds, and keeps only those workers' files", () => {
		expect(some.newJournalFiles()).toEqual([3, 4, 5]);
		expect([undefined, 2, 3, 5, 6].map((id) => some.keepsJournalOf(id))).toEqual([false, false, true, true, false]);
		expect([some.journalsSplitOf(10), some.journalsSplitOf(3)]).toEqual([true, false]);
		expect(some.journaledWorkers(10)).toEqual([3, 4, 5]);
	});

	it("cannot restore without each of its own workers' files", () => {
		expect(some.neededToRestore([4])).toEqual([4]);
		expect(some.neededToRestore([])).toEqual([]);
	});

	it('holds a copy of the ids it was given', () => {
		const ids = [1, 2];
		const scope = chooseFleetScope(4, ids);
		ids.push(3);
		expect(scope.ids).toEqual([1, 2]);
	});
});
