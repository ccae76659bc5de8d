import { describe, expect, it } from 'vitest';
import { wordError as bossWords } from '../../../src/boss/wordError.js';
import { wordError as cliWords } from '../../../src/cli/wordError.js';
import { ErrorCodes, JobError } from '../../../src/errors.js';

const running = new JobError(ErrorCodes.JobRunning, 'A job is already running (Renaming to “x”, 5 of 10 done).', { context: { done: 5, total: 10 } });

describe('an engine error, worded by each surface', () => {
	it('the boss points at its slash commands', () => {
		expect(bossWords(running)).toBe('A job is already running (Renaming to “x”, 5 of 10 done). Watch it with /status, or stop it with /cancel first.');
	});

	it('massnick run names no slash command, only what the operator can do at the machine', () => {
		const text = cliWords(running);
		expect(text).toContain('A job is already running');
		expect(text).not.toMatch(/\/status|\/cancel/);
		expect(text).toMatch(/Ctrl-C or SIGTERM/);
	});

	it('keeps the data beside the words, and leaves other errors as they are', () => {
		expect(running.context).toEqual({ done: 5, total: 10 });
		const other = new JobError(ErrorCodes.NoJournal, 'There is no journal.');
		expect(bossWords(other)).toBe('There is no journal.');
		expect(cliWords(other)).toBe('There is no journal.');
	});
});
