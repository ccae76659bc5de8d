import { describe, expect, it } from 'vitest';
import { renderShards, unknownWorkersNote } from '../../../../src/boss/status/renderJob.js';
import type { WorkerSnapshot } from '../../../../src/jobs/Progress.js';

function slice(index: number, inSlice: number): WorkerSnapshot {
	return {
		index,
		inSlice,
		changed: 0,
		alreadyDone: 0,
		cant: 0,
		aboveRequester: 0,
		skipped: 0,
		left: 0,
		failed: {},
		inFlight: 0,
		failedTotal: 0,
		done: 0,
		queued: inSlice,
		rate: 0,
		etaMs: null,
	};
}

describe('unknownWorkersNote', () => {
	it('says nothing when the boss knows every worker bot', () => {
		expect(unknownWorkersNote({ workers: [], reachKnown: true })).toBeUndefined();
	});

	it("names the workers, what the count gets wrong and the fix; members above the workers only when no worker's role is known", () => {
		const none = unknownWorkersNote({ workers: [0, 1, 2], reachKnown: false })!;
		expect(none).toContain('does not know the bots of workers 0, 1, 2');
		expect(none).toContain("members at or above the workers' role for members to change");
		expect(none).toContain("Give the boss every worker's token in WORKER_TOKENS");
		const some = unknownWorkersNote({ workers: [3], reachKnown: true })!;
		expect(some).toContain("does not know worker 3's bot");
		expect(some).not.toContain('at or above');
	});
});

describe('renderShards', () => {
	const row = (index: number) => ({ index, ping: 42, state: 'ready' });

	it('a boss holding every worker lists each with its slice, as before', () => {
		const text = renderShards({ count: 2, workers: [row(0), row(1)] }, 30, [slice(0, 1200), slice(1, 1300)]);
		expect(text.split('\n')[0]).toBe('2 workers · boss ping 30 ms');
		expect(text).toMatch(/\n\s+0\s+1,200\s+42 ms\s+ready/);
		expect(text).toMatch(/\n\s+1\s+1,300\s/);
	});

	it('a boss holding some workers says which of how many, and finds each slice by worker id, not by place', () => {
		const text = renderShards({ count: 10, workers: [row(3), row(4)] }, 30, [slice(3, 501), slice(4, 502)]);
		expect(text.split('\n')[0]).toBe('workers 3, 4 of 10 here; the others run elsewhere · boss ping 30 ms');
		expect(text).toMatch(/\n\s+3\s+501\s/);
		expect(text).toMatch(/\n\s+4\s+502\s/);
	});

	it('a boss holding no worker says the workers run elsewhere, with no empty table', () => {
		const text = renderShards({ count: 4, workers: [] }, -1, undefined);
		expect(text).toBe("All 4 workers run in other processes, and /shards shows this process's only · boss ping —");
	});
});
