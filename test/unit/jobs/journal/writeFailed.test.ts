import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../../src/errors.js';
import { writeFailed } from '../../../../src/jobs/journal/files.js';

const failure = (code: string): NodeJS.ErrnoException => Object.assign(new Error(`${code}: write failed`), { code });
const path = '/var/lib/massnick/175928847299117063/job-1.jsonl';

describe('a journal write the disk refused', () => {
	it('a full disk names the folder and says to free space there, then run the same command again', () => {
		for (const code of ['ENOSPC', 'EDQUOT']) {
			const error = writeFailed(path, failure(code));
			expect(error.code).toBe(ErrorCodes.JournalWriteFailed);
			expect(error.message).toBe(
				`Writing the journal ${path} failed (${code}), so the job stopped: no member is changed without their original on disk. To go on, the disk holding /var/lib/massnick/175928847299117063 is full: free space there (or set MASSNICK_DATA_DIR to a folder on a larger disk, with this folder moved along), then run the same command again: it continues where this one stopped.`,
			);
		}
	});

	it('a file-size limit, a read-only or unwritable folder, and anything else each get their own fix', () => {
		expect(writeFailed(path, failure('EFBIG')).message).toContain('reached the largest file this system lets massnick write');
		expect(writeFailed(path, failure('EROFS')).message).toContain('/var/lib/massnick/175928847299117063 cannot be written: make it writable');
		expect(writeFailed(path, new Error('the disk went away')).message).toContain(
			'failed (the disk went away), so the job stopped: no member is changed without their original on disk. To go on, check the disk holding /var/lib/massnick/175928847299117063',
		);
	});
});
