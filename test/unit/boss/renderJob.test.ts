import { describe, expect, it } from 'vitest';
import { unknownWorkersNote } from '../../../src/boss/renderJob.js';

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
