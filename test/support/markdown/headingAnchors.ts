import { proseLines } from './proseLines.js';

/**
 * The `#anchor` GitHub gives a heading's text: lower case, every character that is not a letter,
 * a digit, a mark, `_`, `-` or a space dropped (punctuation, emoji, backticks), each space made a
 * hyphen. The rule github-slugger applies to the rendered heading, so a link's anchor can be
 * checked without GitHub.
 *
 * @see https://github.com/Flet/github-slugger
 */
export function slugOf(heading: string): string {
	const text = heading
		// A link in a heading renders as its text; emphasis and code marks render as nothing.
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/[*`]/g, '')
		.trim()
		.toLowerCase();
	return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
}

/**
 * Every anchor a Markdown file's headings make, as GitHub renders them: a heading's slug, and for
 * the second and later headings with the same slug, the slug with `-1`, `-2`, … Lines inside code
 * fences are not headings (a `# comment` in a shell block).
 */
export function headingAnchors(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	for (const line of proseLines(markdown)) {
		const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
		if (!heading) continue;
		const slug = slugOf(heading[1]!);
		const times = seen.get(slug) ?? 0;
		seen.set(slug, times + 1);
		anchors.add(times === 0 ? slug : `${slug}-${times}`);
	}
	return anchors;
}
