/**
 * A Markdown text's lines, each line of a fenced code block (```` ``` ```` or `~~~`) blanked: where
 * a heading is a heading and a link is a link. A `# comment` in a shell block is no heading, and a
 * `[x](y)` in a code sample is an example, not a link. Lines keep their numbers.
 */
export function proseLines(markdown: string): string[] {
	const lines: string[] = [];
	let fence: string | undefined;
	for (const line of markdown.split('\n')) {
		const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
		if (fence !== undefined) {
			if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
			lines.push('');
			continue;
		}
		if (marker !== undefined) {
			fence = marker;
			lines.push('');
			continue;
		}
		lines.push(line);
	}
	return lines;
}
