import { isSnowflake, snowflakeToTimestamp } from '../../discord/snowflake.js';
import { ErrorCodes, JobError } from '../../errors.js';
import { compareSnowflakes } from './compareSnowflakes.js';
import { csvRecords } from './csvRecords.js';
import { checkIdFileSize, MAX_ID_FILE_BYTES } from './idFileSize.js';

/**
 * The most user ids one job may be limited to. The job keeps them in memory and in its journal's
 * header (about 22 bytes each: 2.2 MB at the bound), and a raid of more accounts is rare enough
 * to be split into jobs.
 */
export const MAX_LISTED_IDS = 100_000;

/** A file of user ids, read: the ids sorted by value (as `compareSnowflakes` orders them), each once. */
export interface IdList {
	readonly ids: readonly string[];
	/** Entries that repeated an id already read. */
	readonly duplicates: number;
}

/** How many of the entries that are not ids an error shows. */
const SHOWN_MISTAKES = 5;
/** A clock ahead of ours by this much still makes ids we accept. */
const CLOCK_SLACK_MS = 24 * 60 * 60 * 1000;
/** The column names a CSV's id column goes by, best first, compared without case, spaces or `_`. */
const ID_COLUMNS = ['userid', 'memberid', 'discorduserid', 'discordid', 'authorid', 'id'];
const MENTION = /^<@!?([0-9]+)>$/;
/** A number as long as a snowflake, alone or in a mention: a line with one is data, not a header. */
const SNOWFLAKE_LIKE = /(?:^|[^0-9])[1-9][0-9]{16,19}(?:[^0-9]|$)/;

const HOW =
	'A user id is 17 to 20 digits (with Developer Mode on, right-click a member → Copy User ID). ' +
	'Give one a line, or separate them with commas, semicolons or spaces; a mention like <@123…> works too, ' +
	'and lines starting with # are comments. A CSV file needs a header row naming its id column (id or user_id).';

interface Mistake {
	readonly line: number;
	readonly token: string;
}

/**
 * The user ids of a file as moderators export them: one a line, or separated by commas,
 * semicolons or spaces, or a CSV with a header row (the column named `id`, `user_id`, `User ID`…,
 * else the first that holds ids). Mentions (`<@123>`, `<@!123>`) are read as their id; blank lines
 * and `#` comments are skipped; an id given twice counts once.
 *
 * Every other entry is a mistake: the error names the first few with their line, so the file can
 * be fixed before anything runs. An id is a snowflake as Discord writes one (17 to 20 digits, no
 * leading zero, within 64 bits) made no later than `now`: longer, shorter or future numbers are
 * typos, not users.
 *
 * @param now - the clock's reading, Unix milliseconds
 * @throws JobError (`INVALID_ARGUMENT`) for mistakes, a file with no id, or one with more than
 *   {@link MAX_LISTED_IDS} ids or {@link MAX_ID_FILE_BYTES} characters
 */
export function parseIdList(text: string, { now }: { readonly now: number }): IdList {
	// Characters are at most bytes: a text within the bound came from a file within it.
	checkIdFileSize(text.length);
	const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
	const lines = body.split(/\r\n|\n|\r/);
	const first = lines.findIndex((line) => isContent(line));
	if (first === -1) throw invalid(`holds no user id. ${HOW}`);

	const ids = new Set<string>();
	const mistakes: Mistake[] = [];
	let duplicates = 0;
	let column: string | undefined;
	const add = (token: string, line: number): void => {
		const id = userIdOf(token, now);
		if (id === undefined) mistakes.push({ line, token });
		else if (ids.has(id)) duplicates++;
		else ids.add(id);
	};

	const header = lines[first]!;
	if (/\p{L}/u.test(header) && !SNOWFLAKE_LIKE.test(header)) {
		column = readCsv(lines.slice(first).join('\n'), first + 1, add);
	} else {
		lines.forEach((line, index) => {
			for (const token of commentless(line).split(/[\s,;]+/)) if (token !== '') add(token, index + 1);
		});
	}

	if (mistakes.length > 0) throw mistaken(mistakes, column);
	if (ids.size === 0) throw invalid(`holds no user id. ${HOW}`);
	if (ids.size > MAX_LISTED_IDS) {
		throw invalid(
			`holds ${ids.size.toLocaleString('en-US')} user ids; one job takes at most ${MAX_LISTED_IDS.toLocaleString('en-US')}. Split the file into parts of up to ${MAX_LISTED_IDS.toLocaleString('en-US')} ids and run one job per part.`,
		);
	}
	return { ids: [...ids].sort(compareSnowflakes), duplicates };
}

/**
 * Reads a CSV whose header row starts `text` (at line `firstLine`): the id column's entries go to
 * `add`, the other columns are ignored. Returns the column's name.
 */
function readCsv(text: string, firstLine: number, add: (token: string, line: number) => void): string {
	const delimiter = delimiterOf(text.slice(0, text.search(/\r|\n|$/)));
	const records = [...csvRecords(text, delimiter, firstLine)].filter(
		(record) => record.fields.some((field) => field.trim() !== '') && !record.fields[0]!.trim().startsWith('#'),
	);
	const [header, ...rows] = records;
	const names = header!.fields.map((name) => name.trim());
	const keys = names.map((name) => name.toLowerCase().replace(/[\s_\-.]/g, ''));
	let index = -1;
	for (const wanted of ID_COLUMNS) {
		index = keys.indexOf(wanted);
		if (index !== -1) break;
	}
	// No column is named for ids: the first that holds one in the first row that has one.
	for (const row of rows) {
		if (index !== -1) break;
		index = row.fields.findIndex((field) => userIdOf(field.trim(), Number.POSITIVE_INFINITY) !== undefined);
	}
	if (index === -1) {
		throw invalid(
			`starts with the header row ${quote(names.join(delimiter))} (line ${firstLine}), but no column is named id or user_id and none holds a user id. ${HOW}`,
		);
	}
	for (const row of rows) {
		const value = row.fields[index]?.trim() ?? '';
		if (value !== '') add(value, row.line);
	}
	return names[index] === '' ? `column ${index + 1}` : names[index]!;
}

/** The delimiter a header row uses: whichever of `,` `;` and tab it holds most (a spreadsheet's choice). */
function delimiterOf(header: string): string {
	const counts = [',', ';', '\t'].map((delimiter) => ({ delimiter, count: header.split(delimiter).length - 1 }));
	return counts.reduce((best, next) => (next.count > best.count ? next : best)).delimiter;
}

/** The id an entry names, or `undefined` when it is not a user id made by `now` (with a day's slack). */
function userIdOf(token: string, now: number): string | undefined {
	const unquoted = token.length >= 2 && /^(["']).*\1$/.test(token) ? token.slice(1, -1).trim() : token;
	const id = MENTION.exec(unquoted)?.[1] ?? unquoted;
	if (!isSnowflake(id) || id.startsWith('0')) return undefined;
	return snowflakeToTimestamp(id) <= now + CLOCK_SLACK_MS ? id : undefined;
}

/** Whether a line holds something: not blank, not a comment. */
function isContent(line: string): boolean {
	const text = line.trim();
	return text !== '' && !text.startsWith('#');
}

/** A line without its comment: from a `#` at its start or after a blank (`123… # the raider`). */
function commentless(line: string): string {
	const at = line.search(/(?:^|\s)#/);
	return at === -1 ? line : line.slice(0, at);
}

function mistaken(mistakes: readonly Mistake[], column: string | undefined): JobError {
	const shown = mistakes.slice(0, SHOWN_MISTAKES).map((mistake) => `line ${mistake.line} ${quote(mistake.token)}`);
	const more = mistakes.length > SHOWN_MISTAKES ? ` and ${mistakes.length - SHOWN_MISTAKES} more` : '';
	const where = column === undefined ? '' : ` in the column ${quote(column)}`;
	const what =
		mistakes.length === 1
			? `has an entry${where} that is not a user id: ${shown[0]}.`
			: `has ${mistakes.length} entries${where} that are not user ids: ${shown.join(', ')}${more}.`;
	return new JobError(ErrorCodes.InvalidArgument, `${what} ${HOW}`, { context: { mistakes: mistakes.slice(0, SHOWN_MISTAKES) } });
}

/** An entry as an error shows it: cut short, control characters visible, in quotes. */
function quote(token: string): string {
	const chars = [...token];
	const cut = chars.length > 40 ? `${chars.slice(0, 40).join('')}…` : token;
	return `“${cut.replace(/\p{Cc}/gu, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)}”`;
}

function invalid(what: string): JobError {
	return new JobError(ErrorCodes.InvalidArgument, what);
}
