import { describe, expect, it } from 'vitest';
import { CUSTOM_ID_MAX_LENGTH, confirmModalId, parseCustomId, previewButtonId, statusButtonId } from '../../../src/boss/customIds.js';
import { jobKey } from '../../../src/boss/jobKey.js';

const LONGEST_SNOWFLAKE = '18446744073709551615';

describe('custom_ids', () => {
	it('a preview button names its preview and button, and reads back', () => {
		const id = previewButtonId(LONGEST_SNOWFLAKE, 'start');
		expect(id).toBe(`preview:${LONGEST_SNOWFLAKE}:start`);
		expect(parseCustomId(id)).toEqual({ prefix: 'preview', args: { previewId: LONGEST_SNOWFLAKE, button: 'start' } });
		expect(parseCustomId(previewButtonId('1', 'cancel'))).toEqual({ prefix: 'preview', args: { previewId: '1', button: 'cancel' } });
	});

	it('the typed-count modal names its preview, and reads back', () => {
		expect(confirmModalId(LONGEST_SNOWFLAKE)).toBe(`confirm:${LONGEST_SNOWFLAKE}`);
		expect(parseCustomId(confirmModalId(LONGEST_SNOWFLAKE))).toEqual({ prefix: 'confirm', args: { previewId: LONGEST_SNOWFLAKE } });
	});

	it('a status button names the run of the job; the confirmation names its member too', () => {
		const key = jobKey({ id: '20991231T235959Z-nickname-clear-99999', mode: 'restore', startedAt: 8_640_000_000_000_000 });
		const confirm = statusButtonId(key, 'confirm', LONGEST_SNOWFLAKE);
		expect(confirm.length).toBeLessThanOrEqual(CUSTOM_ID_MAX_LENGTH);
		expect(parseCustomId(confirm)).toEqual({ prefix: 'status', args: { jobKey: key, button: 'confirm', userId: LONGEST_SNOWFLAKE } });
		expect(parseCustomId(statusButtonId(key, 'refresh'))).toEqual({ prefix: 'status', args: { jobKey: key, button: 'refresh' } });
	});

	it.each([
		'',
		'start',
		'preview:1',
		'preview:1:go',
		'preview:1:start:2',
		'status:k:confirm',
		'status:k:cancel:1',
		'other:1:start',
		'preview::start',
		'confirm:1:start',
		'confirm:',
	])('%j is not one of ours', (customId) => {
		expect(parseCustomId(customId)).toBeUndefined();
	});

	it('refuses to build an id Discord would refuse, or one that would read back wrong', () => {
		expect(() => previewButtonId('x'.repeat(100), 'start')).toThrow(RangeError);
		expect(() => previewButtonId('a:b', 'start')).toThrow(RangeError);
		expect(() => statusButtonId('k', 'confirm')).toThrow(RangeError);
	});
});

describe('jobKey', () => {
	const job = { id: '20250101T000000Z-nickname-1', mode: 'apply' as const, startedAt: 1_735_689_600_000 };
	it('tells apart a rerun of the same journal and its restore, which share the job id', () => {
		const rerun = { ...job, startedAt: job.startedAt + 60_000 };
		const restore = { ...job, mode: 'restore' as const };
		expect(new Set([jobKey(job), jobKey(rerun), jobKey(restore)]).size).toBe(3);
		expect(jobKey(job)).toBe(jobKey({ ...job }));
		expect(jobKey(job)).toMatch(/^[0-9a-z]+\.[0-9a-z]+$/);
	});
});
