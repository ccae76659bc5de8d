import { describe, expect, it } from 'vitest';
import { StringStore } from '../../../../src/jobs/journal/StringStore.js';

describe('StringStore', () => {
	it('gives back each name as it was stored', () => {
		const store = new StringStore();
		const names = ['ally', '🎃 Alice', '', 'x'.repeat(127), 'y'.repeat(128), 'ünïcödé 名前 👩‍👩‍👧', 'a\u0000b'];
		const references = names.map((name) => store.add(name));
		expect(references.map((reference) => store.get(reference))).toEqual(names);
	});

	it('null is reference 0 and stores nothing', () => {
		const store = new StringStore();
		expect(store.add(null)).toBe(0);
		expect(store.get(0)).toBeNull();
		expect(store.add('a')).not.toBe(0);
	});

	it('a name stored again is the same reference, not a second copy', () => {
		const store = new StringStore();
		const first = store.add('🎃 April Fool');
		store.add('something else');
		expect(store.add('🎃 April Fool')).toBe(first);
		expect(store.add('🎃 April Foo')).not.toBe(first);
		expect(store.get(store.add('🎃 April Foo'))).toBe('🎃 April Foo');
	});

	it('names that fill many buffers stay readable across their edges', () => {
		const store = new StringStore();
		const references: number[] = [];
		for (let n = 0; n < 150_000; n++) references.push(store.add(`🎃 member number ${n}`));
		for (let n = 0; n < 150_000; n += 499) expect(store.get(references[n]!)).toBe(`🎃 member number ${n}`);
		expect(store.get(references[149_999]!)).toBe('🎃 member number 149999');
	});

	it('a name longer than a buffer gets one of its own, and later names still read back', () => {
		const store = new StringStore();
		const before = store.add('before');
		const long = 'é'.repeat(700_000); // 1.4 MB of UTF-8
		const reference = store.add(long);
		const after = store.add('after');
		expect(store.get(reference)).toBe(long);
		expect(store.get(before)).toBe('before');
		expect(store.get(after)).toBe('after');
	});
});
