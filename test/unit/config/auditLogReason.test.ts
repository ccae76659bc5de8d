import { describe, expect, it } from 'vitest';
import { auditLogReasonProblem, expandAuditLogReason } from '../../../src/config/auditLogReason.js';

const values = { jobKind: 'rename', user: 'alice', userId: '175928847299117063', jobId: 'j1' };

describe('audit log reason', () => {
	it('the default template expands to who ran which job', () => {
		expect(expandAuditLogReason('massnick {jobKind} by {user} ({userId})', values)).toBe('massnick rename by alice (175928847299117063)');
	});

	it('an expansion is cut to 512 code points', () => {
		const reason = expandAuditLogReason(`${'🎃'.repeat(600)} {user}`, values);
		expect(Array.from(reason)).toHaveLength(512);
	});

	it.each([
		['massnick {jobKind} by {user} ({userId}) job {jobId}', undefined],
		['{nope}', /unknown placeholder \{nope\}/],
		['{}', /unknown placeholder \{\}/],
		['   ', /must not be empty/],
		[`${'x'.repeat(500)}{user}`, /can expand to 537 characters/],
		['x'.repeat(512), undefined],
	])('the template %j has problem %s', (template, expected) => {
		const problem = auditLogReasonProblem(template);
		if (expected === undefined) expect(problem).toBeUndefined();
		else expect(problem).toMatch(expected);
	});
});
