import { ErrorCodes, JobError } from '../../../errors.js';

/**
 * Nickname templates: `🎃 {display_name}`, `{username} (guest)`, `Player {id}`.
 *
 * `{{` and `}}` write literal braces. Nicknames are measured in Unicode code points (an emoji
 * like 🎃 is one), which is how Discord's OpenAPI `maxLength: 32` counts.
 *
 * @see https://discord.com/developers/docs/resources/user#usernames-and-nicknames
 */

/** The placeholders a template may use. */
export const PLACEHOLDERS = ['username', 'display_name', 'nick', 'id'] as const;

export type Placeholder = (typeof PLACEHOLDERS)[number];

/** Discord's limit on a nickname's length, in code points. */
export const NICKNAME_MAX_LENGTH = 32;

export type TemplatePart = { readonly type: 'text'; readonly text: string } | { readonly type: 'placeholder'; readonly name: Placeholder };

/** A parsed, checked template. Build it with {@link parseTemplate}. */
export interface Template {
	/** The text as the user wrote it (what the journal records). */
	readonly source: string;
	readonly parts: readonly TemplatePart[];
	/** Expansions are cut to this many code points. */
	readonly maxLength: number;
}

/** What a template reads from a member. */
export interface TemplateMember {
	readonly id: string;
	readonly username: string;
	/** The user's display name (`global_name`), if set. */
	readonly globalName: string | null;
	/** The guild nickname now, if any. */
	readonly nick: string | null;
}

export interface ParseTemplateOptions {
	/** Defaults to Discord's 32; `nickname.maxLength` in the settings. */
	maxLength?: number;
}

/**
 * Parses and checks `text`.
 *
 * @throws {JobError} `TEMPLATE_INVALID` naming an unknown placeholder or an unbalanced brace;
 * `NAME_EMPTY` when a name without placeholders is blank; `NAME_TOO_LONG` when a name without
 * placeholders, or the fixed text around them, is longer than `maxLength` (a fixed text that
 * long would leave no room for any placeholder).
 */
export function parseTemplate(text: string, { maxLength = NICKNAME_MAX_LENGTH }: ParseTemplateOptions = {}): Template {
	const parts: TemplatePart[] = [];
	let literal = '';
	for (let i = 0; i < text.length; i++) {
		const char = text[i];
		if (char === '{' && text[i + 1] === '{') {
			literal += '{';
			i++;
		} else if (char === '}' && text[i + 1] === '}') {
			literal += '}';
			i++;
		} else if (char === '}') {
			throw new JobError(ErrorCodes.TemplateInvalid, `The name has a '}' with no '{' before it (at character ${i + 1}); write }} for a literal brace.`);
		} else if (char === '{') {
			const end = text.indexOf('}', i + 1);
			const inner = end === -1 ? '' : text.slice(i + 1, end);
			if (end === -1 || inner.includes('{')) {
				throw new JobError(ErrorCodes.TemplateInvalid, `The name has a '{' that is never closed (at character ${i + 1}); write {{ for a literal brace.`);
			}
			if (!(PLACEHOLDERS as readonly string[]).includes(inner)) throw unknownPlaceholder(inner);
			if (literal !== '') parts.push({ type: 'text', text: literal });
			literal = '';
			parts.push({ type: 'placeholder', name: inner as Placeholder });
			i = end;
		} else {
			literal += char;
		}
	}
	if (literal !== '') parts.push({ type: 'text', text: literal });
	const template: Template = Object.freeze({ source: text, parts: Object.freeze(parts), maxLength });

	const fixed = normalizeNickname(parts.map((part) => (part.type === 'text' ? part.text : ' ')).join(''));
	const fixedLength = Array.from(fixed).length;
	if (templateIsPlain(template)) {
		if (fixedLength === 0) throw new JobError(ErrorCodes.NameEmpty, 'The name is empty; give at least one visible character.');
		if (fixedLength > maxLength) {
			throw new JobError(ErrorCodes.NameTooLong, `The name is ${fixedLength} characters; Discord allows at most ${maxLength}.`);
		}
	} else if (fixedLength > maxLength) {
		throw new JobError(
			ErrorCodes.NameTooLong,
			`The text around the placeholders is ${fixedLength} characters; Discord allows at most ${maxLength} in all, so no placeholder would show.`,
		);
	}
	return template;
}

/** Whether the template has no placeholders (every member gets the same name). */
export function templateIsPlain(template: Template): boolean {
	return template.parts.every((part) => part.type === 'text');
}

/** Whether the template uses `name`. */
export function templateUses(template: Template, name: Placeholder): boolean {
	return template.parts.some((part) => part.type === 'placeholder' && part.name === name);
}

/**
 * The nickname `template` gives `member`: whitespace trimmed and collapsed as Discord does, then
 * cut to `template.maxLength` code points (see {@link fitNickname}).
 *
 * Returns `''` only when every placeholder expands to blanks; never send that, Discord would read
 * it as "clear the nickname". Note a result equal to the username is stored by Discord as no
 * nickname at all; the planner handles that.
 */
export function expandTemplate(template: Template, member: TemplateMember): string {
	const text = template.parts.map((part) => (part.type === 'text' ? part.text : placeholderValue(part.name, member))).join('');
	return fitNickname(normalizeNickname(text), template.maxLength);
}

/**
 * Whether `name` is what `template` gives `member` for some nickname it had before: for
 * `🎃 {nick}`, `🎃 bob` is an expansion whatever `member.nick` is now. This makes `{nick}`
 * templates idempotent when the original nickname is not known (a rerun without a journal, a
 * clear): renaming `🎃 bob` again would give `🎃 🎃 bob`. For a template without `{nick}` it is
 * plain equality with the expansion.
 */
export function isExpansionOf(template: Template, member: TemplateMember, name: string): boolean {
	if (!templateUses(template, 'nick')) return name === expandTemplate(template, member);
	for (const candidate of nickCandidates(template, member, name)) {
		if (expandTemplate(template, { ...member, nick: candidate }) === name) return true;
	}
	return false;
}

/** Trims, and collapses every run of whitespace to one space, as Discord does to nicknames. */
export function normalizeNickname(text: string): string {
	return text.trim().replace(/\s+/g, ' ');
}

/**
 * Cuts `text` to at most `maxLength` code points, at a grapheme boundary where possible (so a
 * flag or a family emoji is never left half), never inside a surrogate pair, and without leaving
 * a trailing space.
 */
export function fitNickname(text: string, maxLength: number): string {
	const points = Array.from(text);
	if (points.length <= maxLength) return text;
	let kept = '';
	let count = 0;
	for (const { segment } of graphemes.segment(text)) {
		const size = Array.from(segment).length;
		if (count + size > maxLength) break;
		kept += segment;
		count += size;
	}
	// A first grapheme longer than the limit (stacked combining marks) is cut by code points.
	if (kept === '') kept = points.slice(0, maxLength).join('');
	return kept.trimEnd();
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function placeholderValue(name: Placeholder, member: TemplateMember): string {
	const displayName = nonBlank(member.globalName) ?? member.username;
	switch (name) {
		case 'username':
			return member.username;
		case 'display_name':
			return displayName;
		case 'nick':
			return nonBlank(member.nick) ?? displayName;
		case 'id':
			return member.id;
	}
}

function nonBlank(text: string | null): string | null {
	return text === null || text.trim() === '' ? null : text;
}

function unknownPlaceholder(inner: string): JobError {
	const known = PLACEHOLDERS.map((name) => `{${name}}`).join(', ');
	const lower = inner.toLowerCase().replace(/[\s-]/g, '_');
	const hint = (PLACEHOLDERS as readonly string[]).includes(lower) ? ` Did you mean {${lower}}?` : '';
	return new JobError(
		ErrorCodes.TemplateInvalid,
		`The name uses {${inner}}, which is not a placeholder.${hint} Use ${known}, or {{ and }} for literal braces.`,
	);
}

/**
 * Nicknames that `template` may have been expanded from to give `name`: the parts of `name` where
 * `{nick}` stands, tried greedy and lazy, and (for a name at the length limit, whose end may have
 * been cut) everything after the text before the first `{nick}`. Each is checked by expanding it.
 */
function* nickCandidates(template: Template, member: TemplateMember, name: string): Generator<string> {
	const pieces: string[] = [];
	let nickSeen = false;
	let prefix: string | undefined;
	for (const part of template.parts) {
		if (part.type === 'placeholder' && part.name === 'nick') {
			prefix ??= pieces.join('');
			// Grouped, so a digit after it (`{nick}{nick}1`) is not read as backreference 11.
			pieces.push(nickSeen ? '(?:\\1)' : '(NICK)');
			nickSeen = true;
		} else {
			pieces.push(looseLiteral(part.type === 'text' ? part.text : placeholderValue(part.name, member)));
		}
	}
	const whole = pieces.join('');
	for (const capture of ['(.+)', '(.+?)']) {
		const match = new RegExp(`^\\s*${whole.replace('(NICK)', capture)}\\s*$`, 'su').exec(name);
		if (match?.[1] !== undefined) yield match[1].trim();
	}
	if (prefix !== undefined && Array.from(name).length >= template.maxLength) {
		const match = new RegExp(`^\\s*${prefix}(.+)$`, 'su').exec(name);
		if (match?.[1] !== undefined) yield match[1].trim();
	}
}

/** A regex source matching `text` with any whitespace run matching any (or no) whitespace. */
function looseLiteral(text: string): string {
	return text
		.split(/\s+/)
		.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
		.join('\\s*');
}
