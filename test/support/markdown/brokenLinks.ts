import { dirname, join, normalize } from 'node:path';
import { headingAnchors } from './headingAnchors.js';
import { proseLines } from './proseLines.js';

/** What the checker may ask of the repository: whether a path is in it, and a Markdown file's text. */
export interface LinkTargets {
	/** Whether `path` (relative to the repository's root, `/`-separated) is a file or a folder in it. */
	has(path: string): boolean;
	/** The text of the Markdown file at `path`, for its headings' anchors. */
	read(path: string): string;
}

/** One link that leads nowhere: where it is, what it says, and why. */
export interface BrokenLink {
	readonly file: string;
	readonly line: number;
	readonly target: string;
	readonly reason: string;
}

/** `[text](target)` and `![alt](target)`, with an optional title; `[label]: target` definitions. */
const INLINE = /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)]*)?\)/g;
const DEFINITION = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/;

/**
 * The relative links of one Markdown file (`file`, relative to the repository's root) that do not
 * resolve: to a path that is not in the repository (outside it, such as `../shared/`, included),
 * or to an `#anchor` no heading of the target Markdown file makes. Links with a scheme
 * (`https:`, `mailto:`) and links inside code are not checked.
 */
export function brokenLinks(file: string, markdown: string, targets: LinkTargets): BrokenLink[] {
	const broken: BrokenLink[] = [];
	proseLines(markdown).forEach((line, index) => {
		// A link inside a code span is an example too.
		const text = line.replace(/(`+)[^`]*?\1/g, (span) => ' '.repeat(span.length));
		const found = [...text.matchAll(INLINE)].map((match) => match[1]!);
		const definition = DEFINITION.exec(text)?.[1];
		if (definition !== undefined) found.push(definition);
		for (const target of found) {
			const reason = whyBroken(file, markdown, target, targets);
			if (reason !== undefined) broken.push({ file, line: index + 1, target, reason });
		}
	});
	return broken;
}

function whyBroken(file: string, markdown: string, target: string, targets: LinkTargets): string | undefined {
	if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined;
	const hash = target.indexOf('#');
	const pathPart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
	const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
	// GitHub reads a link that starts with `/` from the repository's root.
	const joined = pathPart === '' ? file : pathPart.startsWith('/') ? pathPart.slice(1) : join(dirname(file), pathPart);
	const path = normalize(joined).replace(/\\/g, '/').replace(/\/$/, '');
	if (path === '..' || path.startsWith('../')) return 'outside the repository';
	if (!targets.has(path)) return `${path} is not in the repository`;
	if (anchor === undefined || anchor === '' || !path.endsWith('.md')) return undefined;
	const text = pathPart === '' ? markdown : targets.read(path);
	return headingAnchors(text).has(anchor) ? undefined : `no heading of ${path} makes #${anchor}`;
}
