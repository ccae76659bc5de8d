import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCodes, JobError } from '../../../src/errors.js';
import { type ActionRunRequest, parseRunArgs } from '../../../src/cli/parseRunArgs.js';
import { readRunFilters } from '../../../src/cli/readRunFilters.js';

const A = '175928847299117063';
const B = '980000000000000001';
const NOW = Date.parse('2026-06-01T00:00:00Z');

let dir: string;
beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), 'massnick-ids-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function request(args: string[]): ActionRunRequest {
	const parsed = parseRunArgs(args);
	if (parsed.kind !== 'run' || parsed.request.kind !== 'action') throw new Error(`not a job: ${JSON.stringify(parsed)}`);
	return parsed.request;
}

async function refusal(args: string[]): Promise<JobError> {
	const error = await readRunFilters(request(args), { now: NOW }).then(
		() => undefined,
		(thrown: unknown) => thrown,
	);
	expect(error).toBeInstanceOf(JobError);
	expect((error as JobError).code).toBe(ErrorCodes.InvalidArgument);
	return error as JobError;
}

describe('massnick run --ids-file', () => {
	it('takes a path, and needs one', () => {
		expect(request(['clearnicks', '--ids-file', 'raid.csv']).options).toEqual({ ids_file: 'raid.csv' });
		const parsed = parseRunArgs(['clearnicks', '--ids-file=']);
		expect(parsed).toEqual({ kind: 'invalid', problem: '--ids-file needs the path of a file' });
	});

	it('reads the file from disk into the filters, with its name for people', async () => {
		const path = join(dir, 'raid.csv');
		writeFileSync(path, `User ID,Name\n${B},bob\n${A},alice\n${A},again\n`);
		const filters = await readRunFilters(request(['sanitize', '--ids-file', path, '--members', 'humans']), { now: NOW });
		expect(filters).toEqual({ onlyRoleId: undefined, excludeRoleId: undefined, members: 'humans', userIdsFrom: 'raid.csv', userIds: [A, B] });
	});

	it('names the flag, the file and the entries at fault', async () => {
		const path = join(dir, 'bad.txt');
		writeFileSync(path, `${A}\nalice\n`);
		expect((await refusal(['clearnicks', `--ids-file=${path}`])).message).toMatch(/^--ids-file bad\.txt has an entry that is not a user id: line 2 “alice”\./);
	});

	it('says so when the path is missing, a folder, or too large, before reading it', async () => {
		expect((await refusal(['clearnicks', '--ids-file', join(dir, 'nope.txt')])).message).toBe(
			`--ids-file ${join(dir, 'nope.txt')} does not exist: give the path of a text or CSV file of user ids.`,
		);
		mkdirSync(join(dir, 'folder'));
		expect((await refusal(['clearnicks', '--ids-file', join(dir, 'folder')])).message).toContain('is not a file');
		const huge = join(dir, 'huge.txt');
		writeFileSync(huge, Buffer.alloc(5 * 1024 * 1024, 0x31));
		expect((await refusal(['clearnicks', '--ids-file', huge])).message).toBe(
			`--ids-file ${huge} is 5.0 MB; a file of ids may be at most 4 MB. Keep only the id column, or split the file and run one job per part.`,
		);
	});
});

describe('massnick run --keep with a duration', () => {
	it('keeps the duration as typed for the rule to read anew, beside its reading as of now', async () => {
		const filters = await readRunFilters(request(['massrole', 'add', '--role', '1100000000000000001', '--keep', '--created-after', '1d']), {
			now: NOW,
			rule: true,
		});
		expect(filters.createdAfter).toBe(NOW - 86_400_000);
		expect(filters.ago).toEqual({ createdAfter: '1d' });
	});

	it('reads it once for a job that is not a rule, and keeps a date as a date', async () => {
		expect((await readRunFilters(request(['massrole', 'add', '--role', '1100000000000000001', '--created-after', '1d']), { now: NOW })).ago).toBeUndefined();
		const dated = await readRunFilters(request(['massrole', 'add', '--role', '1100000000000000001', '--keep', '--created-after', '2026-05-01']), {
			now: NOW,
			rule: true,
		});
		expect(dated.ago).toBeUndefined();
	});
});
