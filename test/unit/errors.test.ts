import { describe, expect, it } from 'vitest';
import { ConfigError, ErrorCodes, JobError, JournalError, MassnickError } from '../../src/errors.js';

describe('errors', () => {
	it('every error carries its stable code and is a MassnickError', () => {
		const job = new JobError(ErrorCodes.JobRunning, 'a job is running');
		const journal = new JournalError(ErrorCodes.JournalCorrupt, 'bad header');
		expect(job).toBeInstanceOf(MassnickError);
		expect(job).toBeInstanceOf(Error);
		expect(job.code).toBe('JOB_RUNNING');
		expect(journal.code).toBe('JOURNAL_CORRUPT');
	});

	it('the name shows the class and the code, like DiscordAPIError[50013]', () => {
		expect(new JobError(ErrorCodes.NameTooLong, 'x').name).toBe('JobError[NAME_TOO_LONG]');
		expect(String(new JournalError(ErrorCodes.NoJournal, 'none'))).toBe('JournalError[NO_JOURNAL]: none');
	});

	it('a ConfigError lists every problem, one per line, each naming its key', () => {
		const error = new ConfigError([
			{ key: 'BOSS_TOKEN', message: 'missing' },
			{ key: 'GUILD_ID', message: 'is not a Discord id' },
		]);
		expect(error.code).toBe(ErrorCodes.ConfigInvalid);
		expect(error.problems).toHaveLength(2);
		expect(error.message.split('\n')).toEqual(['The configuration has 2 problems:', '- BOSS_TOKEN: missing', '- GUILD_ID: is not a Discord id']);
	});

	it('error codes are unique', () => {
		const values = Object.values(ErrorCodes);
		expect(new Set(values).size).toBe(values.length);
	});

	it('a cause is kept', () => {
		const cause = new Error('EIO');
		expect(new JournalError(ErrorCodes.JournalWriteFailed, 'write failed', { cause }).cause).toBe(cause);
	});
});
