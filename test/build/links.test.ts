import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { brokenLinks, type LinkTargets } from '../support/markdown/brokenLinks.js';
import { headingAnchors, slugOf } from '../support/markdown/headingAnchors.js';

const run = promisify(execFile);

/**
 * What the repository holds: every file git tracks or would track (a new page not committed yet
 * included, nothing it ignores such as `dist/`), and every folder above one. A link to anything
 * else works on one machine and is broken on GitHub and in every clone.
 */
async function repositoryTargets(): Promise<LinkTargets & { files: string[] }> {
	const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { maxBuffer: 16 * 1024 * 1024 });
	const files = stdout.split('\0').filter(Boolean);
	const paths = new Set(files);
	for (const file of files) {
		for (let slash = file.indexOf('/'); slash > 0; slash = file.indexOf('/', slash + 1)) paths.add(file.slice(0, slash));
	}
	return { files, has: (path) => paths.has(path), read: (path) => readFileSync(path, 'utf8') };
}

describe('the README, docs/ and every other Markdown page link only to what the repository holds', () => {
	it('every relative link in README.md, in every file under docs/ and in every other Markdown page resolves, and so does its #anchor', async () => {
		const targets = await repositoryTargets();
		const pages = targets.files.filter((file) => file.endsWith('.md'));
		expect(pages).toContain('README.md');
		expect(pages).toContain('docs/architecture.md');
		expect(pages).toContain('packages/discord-sandbox/README.md');
		const broken = pages.flatMap((page) => brokenLinks(page, readFileSync(page, 'utf8'), targets));
		expect(broken.map(({ file, line, target, reason }) => `${file}:${line} ${target}: ${reason}`)).toEqual([]);
	});

	it('reports a link to a missing file, to a missing heading, and out of the repository, and passes the rest (the check itself works)', async () => {
		const targets = await repositoryTargets();
		const scratch = [
			'# Scratch page',
			'A [good one](docs/architecture.md#the-layers), [a folder](deploy/kubernetes), [here](#scratch-page) and [the web](https://discord.com/developers/docs).',
			'A [missing file](docs/no-such-page.md), [a missing heading](docs/architecture.md#no-such-heading) and [the shared folder](../shared/STYLE.md).',
			'```md',
			'[an example in a code block](docs/not-checked.md)',
			'```',
			'An example in `[code](docs/not-checked-either.md)`.',
			'[defined]: docs/missing-definition.md',
		].join('\n');
		expect(brokenLinks('README.md', scratch, targets)).toEqual([
			{ file: 'README.md', line: 3, target: 'docs/no-such-page.md', reason: 'docs/no-such-page.md is not in the repository' },
			{ file: 'README.md', line: 3, target: 'docs/architecture.md#no-such-heading', reason: 'no heading of docs/architecture.md makes #no-such-heading' },
			{ file: 'README.md', line: 3, target: '../shared/STYLE.md', reason: 'outside the repository' },
			{ file: 'README.md', line: 8, target: 'docs/missing-definition.md', reason: 'docs/missing-definition.md is not in the repository' },
		]);
	});

	it('resolves a link from a page under docs/ against that page’s folder', async () => {
		const targets = await repositoryTargets();
		expect(brokenLinks('docs/page.md', '[up](../README.md) [beside](architecture.md) [wrong](docs/architecture.md)', targets)).toEqual([
			{ file: 'docs/page.md', line: 1, target: 'docs/architecture.md', reason: 'docs/docs/architecture.md is not in the repository' },
		]);
	});
});

describe('heading anchors, as GitHub makes them', () => {
	it('drops punctuation, code marks and emoji, keeps underscores, and numbers a repeated heading', () => {
		expect(slugOf("On Discord's real windows: the last percent")).toBe('on-discords-real-windows-the-last-percent');
		expect(slugOf('How many pods one `LISTER_TOKEN` feeds')).toBe('how-many-pods-one-lister_token-feeds');
		expect(slugOf('The 2026 rule: 10,000 users, and a yearly reapplication')).toBe('the-2026-rule-10000-users-and-a-yearly-reapplication');
		expect(slugOf('🎃 Rollout, step by step')).toBe('-rollout-step-by-step');
		expect([...headingAnchors('# A\n## Notes\n```sh\n# not a heading\n```\n### Notes')]).toEqual(['a', 'notes', 'notes-1']);
	});
});
