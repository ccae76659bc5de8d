import * as z from 'zod/mini';

/** A Zod issue as the contract checks see it: `input` is there because they parse with `reportInput`. */
export interface SpecIssue {
	code: string;
	path: readonly PropertyKey[];
	message: string;
	input?: unknown;
	format?: string;
	expected?: string;
	values?: readonly unknown[];
	errors?: SpecIssue[][];
}

/**
 * Where the sandbox knowingly disagrees with the schemas generated from Discord's spec, because
 * Discord's documentation and its wire format say otherwise (the spec's README: "may be not
 * correct … follow the docs, not the spec"). Each one excuses exactly the issues it names.
 */
export interface SpecDeviation {
	name: string;
	why: string;
	/** `path` is the issue's full path in `body`. */
	excuses(issue: SpecIssue, path: readonly PropertyKey[], body: unknown): boolean;
}

const rfc3339 = z.iso.datetime({ offset: true, local: false });

export const specDeviations: readonly SpecDeviation[] = [
	{
		name: 'timestamps with +00:00',
		why:
			'The spec types timestamps as `format: date-time` (RFC 3339, offsets allowed), but the generated Zod uses ' +
			'`z.iso.datetime()`, which accepts only `Z`. Discord writes `2016-04-05T23:52:30.292000+00:00`.',
		excuses: (issue) => issue.code === 'invalid_format' && issue.format === 'datetime' && rfc3339.safeParse(issue.input).success,
	},
	{
		name: 'field error codes are strings',
		why:
			'The spec reuses its `Error` ({code: integer, message}) for the leaves of a 50035 body, but Discord sends ' +
			'string codes there: `{"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "..."}]}` ' +
			'(docs, reference#error-messages).',
		excuses: (issue, path) =>
			issue.code === 'invalid_type' &&
			path.at(-1) === 'code' &&
			path.at(-3) === '_errors' &&
			typeof issue.input === 'string' &&
			/^[A-Z0-9_]+$/.test(issue.input),
	},
	{
		name: 'rate-limit bodies without code',
		why:
			'The spec builds RatelimitedResponse on `Error`, which requires `code`; Discord documents 429 bodies as ' +
			'`{message, retry_after, global, code?}`, and its examples have no `code` (topics/rate-limits).',
		excuses: (issue, path, body) =>
			issue.code === 'invalid_type' &&
			path.length === 1 &&
			path[0] === 'code' &&
			issue.input === undefined &&
			typeof body === 'object' &&
			body !== null &&
			'retry_after' in body,
	},
];
