import { expect } from 'vitest';
import { JournalError } from '../../src/errors.js';

/** The code of the `JournalError` `promise` rejects with (failing on any other error), or `undefined` if it resolves. */
export async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
	try {
		await promise;
	} catch (error) {
		expect(error).toBeInstanceOf(JournalError);
		return (error as JournalError).code;
	}
	return undefined;
}
